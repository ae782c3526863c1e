/** @module A client of the gateway's operator REST API (docs/operator-api.md): list, get and answer questions with the bearer token. */

import { LocalError } from '../core/errors/local.js';
import type { z } from 'zod';

import type { AnswerRequest, QuestionView } from '../edges/operator/api-schemas.js';
import { answeredSchema, errorBodySchema, questionDetailSchema, questionViewSchema } from '../edges/operator/api-schemas.js';
import { fetchOrConnectError } from './connect-error.js';
import type { ReloadAnswer } from '../edges/operator/config-schemas.js';
import { reloadAppliedSchema, reloadRefusedBodySchema } from '../edges/operator/config-schemas.js';

export type QuestionDetail = z.output<typeof questionDetailSchema>;
export type AuditLine = QuestionDetail['audit'][number];

/** The list filters the CLI offers (a subset of the API's query). */
export interface ListFilter {
  /** Omitted: every state. */
  states?: readonly string[];
  upstream?: string;
  tool?: string;
  limit?: number;
}

export interface OperatorClientOptions {
  /** The gateway's base URL, e.g. http://127.0.0.1:3939 (a trailing /mcp is dropped). */
  baseUrl: string;
  /** The operator token; sent as `Authorization: Bearer`, never shown. */
  token: string;
  /** The name for the audit trail (`X-Switchboard-Operator`). */
  operator?: string;
}

/** The API answered with an error status: what the catalogue body says, when it is one. */
export class OperatorApiError extends LocalError {
  override readonly name = 'OperatorApiError';
  override readonly code = 'operator-api-refused';
  readonly status: number;
  /** The operator API's catalogue code (`INVALID_ANSWER`, `ALREADY_SETTLED`, …), when the body is a catalogue error. */
  readonly apiCode: string | undefined;
  readonly field: string | undefined;
  /** With ALREADY_SETTLED: the record as it stands. */
  readonly question: QuestionView | undefined;

  constructor(status: number, message: string, details: { code?: string; field?: string; question?: QuestionView } = {}) {
    super(message);
    this.status = status;
    this.apiCode = details.code;
    this.field = details.field;
    this.question = details.question;
  }
}

/** The gateway answered 2xx with a body that is not what the API documents. */
export class UnexpectedAnswerError extends LocalError {
  override readonly name = 'UnexpectedAnswerError';
  override readonly code = 'operator-api-unexpected';
}

/** The root the operator routes hang from: `base/` with a trailing `/mcp` (the MCP endpoint's URL, given by mistake) dropped. */
export function operatorApiRoot(baseUrl: string): URL {
  const url = new URL(baseUrl);
  url.pathname = url.pathname.replace(/\/mcp\/?$/, '/').replace(/\/?$/, '/');
  url.search = '';
  url.hash = '';
  return url;
}

/** Why a header value would be refused by fetch (which would then quote it in its error), or undefined. */
export function headerValueProblem(value: string): string | undefined {
  if (/[\u0000-\u001f\u007f]/.test(value)) return 'contains a control character (a line break?)';
  if ([...value].some((char) => char.codePointAt(0)! > 0xff)) return 'contains characters an HTTP header cannot carry';
  return undefined;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export class OperatorClient {
  readonly #root: URL;
  readonly #headers: Record<string, string>;

  constructor(options: OperatorClientOptions) {
    this.#root = operatorApiRoot(options.baseUrl);
    this.#headers = { authorization: `Bearer ${options.token}`, accept: 'application/json' };
    if (options.operator !== undefined) this.#headers['x-switchboard-operator'] = options.operator;
  }

  /** The base URL the API is reached at (for messages). */
  get root(): URL {
    return new URL(this.#root);
  }

  /** GET /api/questions, newest first. */
  async list(filter: ListFilter = {}): Promise<QuestionView[]> {
    const url = new URL('api/questions', this.#root);
    if (filter.states !== undefined && filter.states.length > 0) url.searchParams.set('state', filter.states.join(','));
    if (filter.upstream !== undefined) url.searchParams.set('upstream', filter.upstream);
    if (filter.tool !== undefined) url.searchParams.set('tool', filter.tool);
    if (filter.limit !== undefined) url.searchParams.set('limit', String(filter.limit));
    return this.#call(url, { method: 'GET' }, questionViewSchema.array());
  }

  /** GET /api/questions/{id}: the question and its audit trail. */
  get(id: string): Promise<QuestionDetail> {
    return this.#call(this.#questionUrl(id), { method: 'GET' }, questionDetailSchema);
  }

  /** POST /api/questions/{id}/answer: the settled question, or (four-eyes) the question awaiting more approvals. */
  async answer(id: string, body: AnswerRequest): Promise<QuestionView> {
    const url = this.#questionUrl(id, '/answer');
    const answered = await this.#call(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }, answeredSchema);
    return answered.question;
  }

  /** POST /api/config/reload: the reload applied (200), or refused with the running config kept (422). */
  async reloadConfig(): Promise<ReloadAnswer> {
    const response = await fetchOrConnectError(new URL('api/config/reload', this.#root), { method: 'POST', headers: this.#headers });
    const body = await readJson(response);
    const refused = response.status === 422 ? reloadRefusedBodySchema.safeParse(body) : undefined;
    if (refused?.success) return { ok: false, trigger: 'api', config: refused.data.config, error: refused.data.error.message };
    if (!response.ok) throw apiError(response.status, body);
    const parsed = reloadAppliedSchema.safeParse(body);
    if (!parsed.success) throw new UnexpectedAnswerError(`the gateway answered HTTP ${response.status} with a body that is not what the operator API documents`);
    return parsed.data;
  }

  #questionUrl(id: string, suffix = ''): URL {
    return new URL(`api/questions/${encodeURIComponent(id)}${suffix}`, this.#root);
  }

  async #call<T extends z.ZodType>(url: URL, init: RequestInit, schema: T): Promise<z.output<T>> {
    const response = await fetchOrConnectError(url, { ...init, headers: { ...this.#headers, ...(init.headers as Record<string, string>) } });
    const body = await readJson(response);
    if (!response.ok) throw apiError(response.status, body);
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new UnexpectedAnswerError(`the gateway answered HTTP ${response.status} with a body that is not what the operator API documents`);
    return parsed.data;
  }
}

function apiError(status: number, body: unknown): OperatorApiError {
  const parsed = errorBodySchema.safeParse(body);
  if (!parsed.success) return new OperatorApiError(status, `HTTP ${status} without an operator API error body`);
  const { error, question } = parsed.data;
  return new OperatorApiError(status, error.message, {
    code: error.code,
    ...(error.field !== undefined && { field: error.field }),
    ...(question !== undefined && { question }),
  });
}
