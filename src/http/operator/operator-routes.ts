/** @module The operator surfaces as one Request → Response handler: the REST API, its live events, its OpenAPI document and the web console. */

import type { OperatorDesk } from '../../broker/operator-desk.js';
import type { AuditEntry } from '../../broker/question.js';
import type { RunStore } from '../../composite/run-store.js';
import type { Logger } from '../../gateway/logger.js';
import { loggerFrom, silentLogger } from '../../gateway/logger.js';
import { DEFAULT_MAX_JSON_DEPTH } from '../../protocol/json-depth.js';
import { MAX_ANSWER_BODY_BYTES, readAnswerRequest } from './answer-request.js';
import { createBearerCheck } from './bearer-auth.js';
import { createConsoleAssets } from './console-assets.js';
import type { QuestionView } from './api-schemas.js';
import { parseListQuery, parseRunListQuery } from './list-query.js';
import { operatorOpenApiText } from './openapi.js';
import { API_HEADERS, jsonResponse, operatorError } from './operator-errors.js';
import { OPERATOR_HEADER, operatorName } from './operator-name.js';
import { DEFAULT_KEEP_ALIVE_MS, openEventStream } from './question-events.js';
import type { OpenEventStream } from './question-events.js';
import { toQuestionView } from './question-view.js';
import { isOperatorPath, matchPath, OPERATOR_ROUTES } from './route-table.js';
import type { RouteId } from './route-table.js';
import { toRunSummary, toRunView } from './run-view.js';

/** What the operator surfaces read of the run store. */
export type RunReader = Pick<RunStore, 'get' | 'list' | 'findByQuestion'>;

/** No composites configured: no runs, and no question belongs to one. */
const NO_RUNS: RunReader = {
  get: async () => undefined,
  list: async () => [],
  findByQuestion: async () => undefined,
};

export interface OperatorRoutesOptions {
  desk: OperatorDesk;
  /** Composite runs (GET /api/runs, and the run of a question); none when left out. */
  runs?: RunReader;
  /** The bearer token every /api request must carry. Never logged, never echoed. */
  token: string;
  logger?: Logger;
  /** The clock (the `ready` event's serverTime). */
  now?: () => Date;
  /** Keep-alive comment period of the event streams (default 15 s). */
  keepAliveMs?: number;
  /** Where index.html and assets/ are (default: src/console under the package root). */
  consoleDir?: string;
  /** Deepest JSON accepted in a request body (`http.maxJsonDepth`; default 64). */
  maxJsonDepth?: number;
}

export interface OperatorRoutes {
  /** The response for an operator path, or undefined when the path is not one (the edge handles it). */
  handle(req: Request): Promise<Response | undefined>;
  /** Ends every open event stream (shutdown). */
  close(): void;
}

/** Whatever reaches the log (an error message from below, say) never carries the token. */
function redactingLogger(inner: Logger, token: string): Logger {
  const redact = (value: unknown): unknown => (typeof value === 'string' && value.includes(token) ? value.split(token).join('[redacted]') : value);
  return loggerFrom((level, message, fields) => {
    inner.log(level, String(redact(message)), fields && Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, redact(value)])));
  });
}

type Handler = (req: Request, params: Record<string, string>, url: URL) => Promise<Response>;

export function createOperatorRoutes(options: OperatorRoutesOptions): OperatorRoutes {
  const { desk } = options;
  const runs = options.runs ?? NO_RUNS;
  const logger = redactingLogger(options.logger ?? silentLogger, options.token);
  const now = options.now ?? (() => new Date());
  const authorized = createBearerCheck(options.token);
  const assets = createConsoleAssets(options.consoleDir);
  const streams = new Set<OpenEventStream>();
  let openApiText: string | undefined;

  const handlers: Record<RouteId, Handler> = {
    async listQuestions(_req, _params, url) {
      const query = parseListQuery(url.searchParams);
      if (!query.ok) return operatorError('INVALID_QUERY', `${query.problem.field}: ${query.problem.message}`, { field: query.problem.field });
      return jsonResponse((await desk.list(query.filter)).map(toQuestionView));
    },
    async questionEvents() {
      const stream = openEventStream({ desk, now, keepAliveMs: options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS, onEnd: () => streams.delete(stream) });
      streams.add(stream);
      return stream.response;
    },
    async getQuestion(_req, { id = '' }) {
      const found = await desk.get(id);
      if (found === undefined) return operatorError('QUESTION_NOT_FOUND', `No question ${JSON.stringify(id)}`);
      const detail: { question: QuestionView; audit: AuditEntry[]; runId?: string; runStepId?: string } = { question: toQuestionView(found.question), audit: found.audit };
      const asking = await runs.findByQuestion(id);
      if (asking !== undefined) {
        detail.runId = asking.run.id;
        detail.runStepId = asking.stepId;
      }
      return jsonResponse(detail);
    },
    async answerQuestion(req, { id = '' }) {
      const read = await readAnswerRequest(req, { maxBodyBytes: MAX_ANSWER_BODY_BYTES, maxJsonDepth: options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH });
      if (!read.ok) return read.response;
      const operator = operatorName(req.headers.get(OPERATOR_HEADER));
      const outcome = await desk.answer(id, read.answer, operator);
      logger.log('info', 'operator answer', { question: id, operator, action: read.answer.action, outcome: outcome.ok ? 'taken' : outcome.kind });
      if (outcome.ok) return jsonResponse({ question: toQuestionView(outcome.question) });
      switch (outcome.kind) {
        case 'not-found':
          return operatorError('QUESTION_NOT_FOUND', outcome.reason);
        case 'settled':
          return operatorError('ALREADY_SETTLED', outcome.reason, { extra: { question: toQuestionView(outcome.question) } });
        case 'invalid':
          return operatorError('INVALID_ANSWER', outcome.reason, outcome.field === undefined ? {} : { field: outcome.field });
      }
    },
    async listRuns(_req, _params, url) {
      const query = parseRunListQuery(url.searchParams);
      if (!query.ok) return operatorError('INVALID_QUERY', `${query.problem.field}: ${query.problem.message}`, { field: query.problem.field });
      return jsonResponse((await runs.list(query.filter)).map(toRunSummary));
    },
    async getRun(_req, { id = '' }) {
      const run = await runs.get(id);
      if (run === undefined) return operatorError('RUN_NOT_FOUND', `No run ${JSON.stringify(id)}`);
      return jsonResponse(toRunView(run));
    },
    async openApiDocument() {
      openApiText ??= operatorOpenApiText();
      return new Response(openApiText, { status: 200, headers: API_HEADERS });
    },
    consolePage: () => assets.page(),
    consoleAsset: (_req, { asset = '' }) => assets.asset(asset),
  };

  async function route(req: Request, url: URL): Promise<Response> {
    const { pathname } = url;
    const isApi = pathname === '/api' || pathname.startsWith('/api/');
    if (isApi && !authorized(req.headers.get('authorization'))) {
      logger.log('warn', 'operator API: request without a valid bearer token', { method: req.method, path: pathname });
      return operatorError('UNAUTHORIZED', 'Send Authorization: Bearer <operator token>', { headers: { 'www-authenticate': 'Bearer realm="switchboard"' } });
    }
    if (pathname === '/console/') return new Response(null, { status: 308, headers: { location: '/console' } });
    const allowed: string[] = [];
    for (const spec of OPERATOR_ROUTES) {
      const params = matchPath(spec.path, pathname);
      if (params === undefined) continue;
      if (spec.method === req.method) return handlers[spec.id](req, params, url);
      allowed.push(spec.method);
    }
    if (allowed.length > 0) {
      const allow = [...new Set(allowed)].join(', ');
      return operatorError('METHOD_NOT_ALLOWED', `${req.method} is not allowed here; use ${allow}`, { headers: { allow } });
    }
    return operatorError('NOT_FOUND', `No operator route ${pathname}`);
  }

  return {
    async handle(req) {
      const url = new URL(req.url);
      if (!isOperatorPath(url.pathname)) return undefined;
      try {
        return await route(req, url);
      } catch (error) {
        logger.log('error', 'operator route failed', { method: req.method, path: url.pathname, error: error instanceof Error ? error.message : String(error) });
        return operatorError('INTERNAL', 'Internal error; see the gateway log');
      }
    },
    close() {
      for (const stream of [...streams]) stream.end();
    },
  };
}
