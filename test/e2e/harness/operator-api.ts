/** @module e2e/harness/operator-api: a small client of a running gateway's operator REST API (`/api/questions`), with bounded waits for questions to appear. */
import { setTimeout as delay } from 'node:timers/promises';

/** A question as `GET /api/questions` shows it (docs/operator-api.md); only what the tests read is typed. */
export interface QuestionView {
  readonly id: string;
  readonly state: string;
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly hostParams?: Record<string, unknown>;
  readonly upstream: string;
  readonly tool?: string;
  readonly hostSessionId?: string;
  readonly hostRevision?: string;
  readonly route: string;
  readonly audience: string;
  readonly audienceReason?: string;
  readonly deadline: string;
  readonly answer?: { action: string; content?: Record<string, unknown>; result?: Record<string, unknown> };
  readonly answeredBy?: { kind: 'host'; sessionId: string } | { kind: 'operator'; name: string } | { kind: 'gateway'; reason: string };
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly settledAt?: string;
}

export interface AuditLine {
  readonly questionId: string;
  readonly at: string;
  readonly actor: string;
  readonly action: string;
  readonly detail?: Record<string, unknown>;
}

/** `GET /api/questions/{id}`. */
export interface QuestionDetail {
  readonly question: QuestionView;
  readonly audit: AuditLine[];
}

/** The body of every error answer; a 409 also carries the question as it stands. */
export interface ApiErrorBody {
  readonly error: { code: string; message: string; field?: string };
  readonly question?: QuestionView;
}

export interface ApiReply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as JSON, when it is JSON. */
  readonly json: unknown;
}

export interface SendOptions {
  /** JSON-encoded and sent as `application/json`. */
  readonly body?: unknown;
  /** The bearer token to send instead of the client's own; `null` sends no Authorization header. */
  readonly token?: string | null;
  readonly headers?: Readonly<Record<string, string>>;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export class OperatorApi {
  /** The gateway's origin, e.g. `http://127.0.0.1:PORT`. */
  readonly origin: string;
  readonly #token: string;
  /** Sent as `X-Switchboard-Operator`: the name the audit trail records. */
  readonly #operator: string | undefined;

  constructor(gatewayUrl: string, token: string, operator?: string) {
    this.origin = new URL(gatewayUrl).origin;
    this.#token = token;
    this.#operator = operator;
  }

  /** One request to the API; never throws on an HTTP error status. */
  async send(method: string, path: string, options: SendOptions = {}): Promise<ApiReply> {
    const token = options.token === undefined ? this.#token : options.token;
    const headers: Record<string, string> = { ...(token === null ? {} : { authorization: `Bearer ${token}` }) };
    if (this.#operator !== undefined) headers['x-switchboard-operator'] = this.#operator;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    Object.assign(headers, options.headers);
    const response = await fetch(new URL(path, this.origin), {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: parseJson(text) };
  }

  /** `GET /api/questions?<query>`; throws unless 200. */
  async list(query = ''): Promise<QuestionView[]> {
    const reply = await this.send('GET', `/api/questions${query === '' ? '' : `?${query}`}`);
    if (reply.status !== 200 || !Array.isArray(reply.json)) throw new Error(`GET /api/questions?${query}: HTTP ${reply.status} ${reply.text}`);
    return reply.json as QuestionView[];
  }

  /** `GET /api/questions/{id}`; throws unless 200. */
  async detail(id: string): Promise<QuestionDetail> {
    const reply = await this.send('GET', `/api/questions/${encodeURIComponent(id)}`);
    if (reply.status !== 200) throw new Error(`GET /api/questions/${id}: HTTP ${reply.status} ${reply.text}`);
    return reply.json as QuestionDetail;
  }

  /** `POST /api/questions/{id}/answer` with `body`; the reply whatever its status. */
  answer(id: string, body: unknown, options: Omit<SendOptions, 'body'> = {}): Promise<ApiReply> {
    return this.send('POST', `/api/questions/${encodeURIComponent(id)}/answer`, { ...options, body });
  }

  /** The ids of every question the API lists now (to tell a new question from earlier ones). */
  async ids(): Promise<Set<string>> {
    return new Set((await this.list('limit=1000')).map((question) => question.id));
  }

  /**
   * Polls `GET /api/questions?<query>` until a question not in `known` appears (bounded); returns it. Throws,
   * naming what was listed, if none does within `timeoutMs`.
   */
  async awaitNewQuestion(known: ReadonlySet<string>, query = 'state=delivered', timeoutMs = 5_000): Promise<QuestionView> {
    let found: QuestionView | undefined;
    let last: QuestionView[] = [];
    let failure: unknown;
    const deadline = Date.now() + timeoutMs;
    while (!found && Date.now() < deadline) {
      try {
        last = await this.list(query);
        found = last.find((question) => !known.has(question.id));
      } catch (error) {
        failure = error;
      }
      if (!found) await delay(25);
    }
    if (!found) throw new Error(`no new question in GET /api/questions?${query} within ${timeoutMs} ms; listed ${JSON.stringify(last)}${failure ? `; last error ${String(failure)}` : ''}`);
    return found;
  }
}

/** What an answer must leave alone when it is refused: the state and how (and by whom) the question was settled. */
export function settlement(question: QuestionView): Pick<QuestionView, 'state' | 'answer' | 'answeredBy' | 'settledAt'> {
  return { state: question.state, answer: question.answer, answeredBy: question.answeredBy, settledAt: question.settledAt };
}
