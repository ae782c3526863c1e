/** @module The operator surfaces as one OpenAPIHono app: the REST API, its live events, its OpenAPI document and the web console, with one onError. */

import { systemClock } from '../../core/clock.js';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';

import type { Principal } from '../../access/principal.js';
import type { OperatorDesk } from '../../questions/operator-desk.js';
import type { AuditEntry, QuestionFilter, QuestionRecord } from '../../questions/question.js';
import type { DeliveryStatus } from '../../notify/delivery-status.js';
import { deliveryStatus } from '../../notify/delivery-status.js';
import type { RunStore } from '../../composite/run-store.js';
import type { Logger } from '../../core/log.js';
import { loggerFrom, silentLogger } from '../../core/log.js';
import { DEFAULT_MAX_JSON_DEPTH } from '../../protocol/json-depth.js';
import { MAX_ANSWER_BODY_BYTES, readAnswerRequest } from './answer-request.js';
import type { QuestionView } from './api-schemas.js';
import type { ConfigInfo, ReloadAnswer } from './config-schemas.js';
import { createConsoleAssets } from './console-assets.js';
import { isForwarded } from '../http/cluster-forward.js';
import { checkCsrf } from './csrf.js';
import type { OperatorAuth, OperatorCredential } from './operator-auth.js';
import { createOperatorAuth } from './operator-auth.js';
import { parseListQuery, parseRunListQuery } from './list-query.js';
import { openApiText, registerDocumentParts } from './openapi.js';
import { API_HEADERS, jsonResponse, operatorError, OperatorProblem } from './operator-errors.js';
import { DEFAULT_KEEP_ALIVE_MS, openEventStream } from './question-events.js';
import type { OpenEventStream } from './question-events.js';
import { toQuestionView } from './question-view.js';
import * as table from './route-table.js';
import { isOperatorPath, OPERATOR_ROUTES } from './route-table.js';
import { toRunSummary, toRunView } from './run-view.js';
import type { SignInRoutes } from './sign-in-routes.js';
import { authMethodsResponse, ownOrigins, sessionResponse } from './sign-in-routes.js';

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
  /** The shared operator token, accepted everywhere unless `auth` says otherwise. Never logged, never echoed. */
  token?: string;
  /** Who may use the API (the shared token, the OpenID provider's access tokens, the console session); default: `token` everywhere. */
  auth?: OperatorAuth;
  /** The console's OpenID Connect sign-in (/console/login, /callback, /logout); absent: those paths are 404. */
  signIn?: SignInRoutes;
  /** `http.publicUrl`: one of the gateway's own origins, for the CSRF Origin check. */
  publicUrl?: string;
  logger?: Logger;
  /** The clock (the `ready` event's serverTime). */
  now?: () => Date;
  /** Keep-alive comment period of the event streams (default 15 s). */
  keepAliveMs?: number;
  /** Where index.html and assets/ are (default: src/console under the package root). */
  consoleDir?: string;
  /** Deepest JSON accepted in a request body (`http.maxJsonDepth`; default 64). */
  maxJsonDepth?: number;
  /**
   * On a cluster: forwards an operator's request to the instance `owner` (signed, over the cluster link) with `body`,
   * for an answer with a secret field whose call waits there; undefined when it cannot (no link, owner gone).
   */
  forwardTo?: (req: Request, owner: string, body: Uint8Array) => Promise<Response | undefined>;
  /** The live configuration (`serve`): its version, and a reload asked for by `operator`; absent: /api/config is 404. */
  config?: ConfigControl;
}

/** What the operator API reaches of the live configuration. */
export interface ConfigControl {
  info(): ConfigInfo;
  reload(operator: Principal): Promise<ReloadAnswer>;
}

export interface OperatorRoutes {
  /** The response for an operator path, or undefined when the path is not one (the edge handles it). */
  handle(req: Request): Promise<Response | undefined>;
  /** The OpenAPI document the app generates from its routes (docs/openapi.json). */
  openApiText(): string;
  /** Ends every open event stream (shutdown). */
  close(): void;
}

/** Whatever reaches the log (an error message from below, say) never carries the token. */
function redactingLogger(inner: Logger, token: string | undefined): Logger {
  if (token === undefined) return inner;
  const redact = (value: unknown): unknown => (typeof value === 'string' && value.includes(token) ? value.split(token).join('[redacted]') : value);
  return loggerFrom((level, message, fields) => {
    inner.log(level, String(redact(message)), fields && Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, redact(value)])));
  });
}

/** The methods each path of the table has, for 405 and `Allow`. */
function methodsByPath(): Map<string, string[]> {
  const methods = new Map<string, string[]>();
  for (const route of OPERATOR_ROUTES) {
    const path = route.getRoutingPath();
    methods.set(path, [...new Set([...(methods.get(path) ?? []), route.method.toUpperCase()])]);
  }
  return methods;
}

/** The path as sent (not percent-decoded), as log lines and messages show it. */
const pathOf = (c: Context): string => new URL(c.req.url).pathname;

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

const methodNotAllowed = (method: string, allow: string): OperatorProblem =>
  new OperatorProblem('METHOD_NOT_ALLOWED', `${method} is not allowed here; use ${allow}`, { headers: { allow } });

export function createOperatorRoutes(options: OperatorRoutesOptions): OperatorRoutes {
  const { desk } = options;
  const runs = options.runs ?? NO_RUNS;
  const logger = redactingLogger(options.logger ?? silentLogger, options.token);
  const now = options.now ?? (() => systemClock.date());
  if (options.auth === undefined && options.token === undefined) throw new Error('the operator routes need a token or an auth');
  const auth = options.auth ?? createOperatorAuth({ ...(options.token === undefined ? {} : { token: options.token }), tokenMode: 'everywhere' });
  /** The operator of each authenticated request. */
  const credentials = new WeakMap<Request, OperatorCredential>();
  const operatorOf = (c: Context): Principal => {
    const credential = credentials.get(c.req.raw);
    if (credential === undefined) throw new Error('an operator route ran without an authenticated operator');
    return credential.operator;
  };
  /** The question as this operator sees it: with its approvals when it is a four-eyes one. */
  const viewOf = async (record: QuestionRecord): Promise<QuestionView> => {
    const view = toQuestionView(record);
    const approvals = await desk.approvals(record);
    return approvals === undefined ? view : { ...view, approvals };
  };
  /**
   * The questions of `filter` this operator may answer. The store pages before the rules apply, so with rules a page
   * may be thin: further pages are read (up to 10) until `limit` are found.
   */
  const visibleList = async (filter: QuestionFilter, operator: Principal): Promise<QuestionRecord[]> => {
    const limit = filter.limit ?? 100;
    const found: QuestionRecord[] = [];
    let page = await desk.list(filter);
    for (let pass = 1; ; pass += 1) {
      found.push(...page.filter((record) => desk.mayAnswer(operator, record)));
      const last = page.at(-1);
      if (found.length >= limit || page.length < limit || last === undefined || pass >= 10) break;
      page = await desk.list({ ...filter, limit, before: last.createdAt });
    }
    return found.slice(0, limit);
  };
  const assets = createConsoleAssets(options.consoleDir);
  const streams = new Set<OpenEventStream>();
  // Routed on the path as sent: a percent-encoded segment never matches a literal one (Hono would decode first).
  const app = new OpenAPIHono({ getPath: (req) => new URL(req.url).pathname });
  const allowed = methodsByPath();
  let documentText: string | undefined;

  /**
   * Registers a route in the document and serves it. Query and body are read by list-query.ts and
   * answer-request.ts, not by zod-openapi's validators: the body is read under the byte cap and the depth
   * limit before it is parsed, and `state` is repeatable or comma-separated.
   */
  const serve = (route: RouteConfig & { getRoutingPath(): string }, handler: (c: Context) => Promise<Response>): void => {
    app.openAPIRegistry.registerPath(route);
    app.on(route.method.toUpperCase(), route.getRoutingPath(), handler);
  };

  app.use('/api', requireOperator);
  app.use('/api/*', requireOperator);
  async function requireOperator(c: Context, next: () => Promise<void>): Promise<void> {
    // Which sign-ins exist is for anyone: the console asks before it has a credential.
    if (pathOf(c) === table.authMethodsRoute.path) return next();
    let credential: OperatorCredential;
    try {
      credential = await auth.authenticate(c.req.raw);
    } catch (problem) {
      logger.log('warn', 'operator API: request without a valid credential', { method: c.req.method, path: pathOf(c), ...(problem instanceof OperatorProblem ? { reason: problem.message } : {}) });
      throw problem;
    }
    // A request another instance forwarded over the cluster link had its Origin checked there (its URL here is this instance's).
    if (credential.via === 'session') checkCsrf(c.req.raw, credential.csrf, isForwarded(c.req.raw) ? 'checked' : ownOrigins(c.req.raw, options.publicUrl));
    credentials.set(c.req.raw, credential);
    return next();
  }
  // A path that does not percent-decode names no route (Hono would hand the segment over undecoded).
  app.use('*', async (c, next) => {
    if (!decodes(pathOf(c))) throw new OperatorProblem('NOT_FOUND', `No operator route ${pathOf(c)}`);
    await next();
  });
  // Hono answers HEAD with the GET route; no operator path has HEAD, so it is refused before the route runs.
  for (const [path, methods] of allowed) {
    app.use(path, async (c, next) => {
      if (c.req.method === 'HEAD') throw methodNotAllowed('HEAD', methods.join(', '));
      await next();
    });
  }

  serve(table.authMethodsRoute, async (c) => authMethodsResponse(c.req.raw, auth));
  serve(table.sessionRoute, async (c) => {
    const credential = credentials.get(c.req.raw);
    if (credential === undefined) throw new Error('an operator route ran without an authenticated operator');
    return sessionResponse(credential);
  });
  serve(table.listQuestionsRoute, async (c) => {
    const query = parseListQuery(new URL(c.req.url).searchParams);
    if (!query.ok) throw new OperatorProblem('INVALID_QUERY', `${query.problem.field}: ${query.problem.message}`, { field: query.problem.field });
    return jsonResponse(await Promise.all((await visibleList(query.filter, operatorOf(c))).map(viewOf)));
  });
  serve(table.questionEventsRoute, async (c) => {
    const operator = operatorOf(c);
    const stream = openEventStream({ desk, now, keepAliveMs: options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS, onEnd: () => streams.delete(stream), visible: (record) => desk.mayAnswer(operator, record), view: viewOf });
    streams.add(stream);
    return stream.response;
  });
  serve(table.getQuestionRoute, async (c) => {
    const id = c.req.param('id') ?? '';
    const found = await desk.get(id);
    // A question this operator may not answer does not exist for them.
    if (found === undefined || !desk.mayAnswer(operatorOf(c), found.question)) throw new OperatorProblem('QUESTION_NOT_FOUND', `No question ${JSON.stringify(id)}`);
    const detail: { question: QuestionView; audit: AuditEntry[]; deliveries: DeliveryStatus[]; runId?: string; runStepId?: string } = {
      question: await viewOf(found.question),
      audit: found.audit,
      deliveries: deliveryStatus(found.audit),
    };
    const asking = await runs.findByQuestion(id);
    if (asking !== undefined) {
      detail.runId = asking.run.id;
      detail.runStepId = asking.stepId;
    }
    return jsonResponse(detail);
  });
  serve(table.answerQuestionRoute, async (c) => {
    const id = c.req.param('id') ?? '';
    const answer = await readAnswerRequest(c.req.raw, { maxBodyBytes: MAX_ANSWER_BODY_BYTES, maxJsonDepth: options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH });
    const operator = operatorOf(c);
    const outcome = await desk.answer(id, answer, operator);
    logger.log('info', 'operator answer', { question: id, operator: operator.subject, issuer: operator.issuer, action: answer.action, outcome: outcome.ok ? (outcome.awaiting ? 'approved' : 'taken') : outcome.kind });
    if (outcome.ok && outcome.awaiting) {
      return jsonResponse({ question: await viewOf(outcome.question), state: 'awaiting-approval', approvals: outcome.awaiting.approvals, needed: outcome.awaiting.needed }, 202);
    }
    if (outcome.ok) return jsonResponse({ question: await viewOf(outcome.question) });
    switch (outcome.kind) {
      case 'not-found':
        throw new OperatorProblem('QUESTION_NOT_FOUND', outcome.reason);
      case 'settled':
        throw new OperatorProblem('ALREADY_SETTLED', outcome.reason, { extra: { question: toQuestionView(outcome.question) } });
      case 'already-approved':
        throw new OperatorProblem('ALREADY_APPROVED', outcome.reason, { extra: { question: await viewOf(outcome.question) } });
      case 'invalid':
        throw new OperatorProblem('INVALID_ANSWER', outcome.reason, outcome.field === undefined ? {} : { field: outcome.field });
      case 'elsewhere': {
        // The secret travels the cluster link to the instance holding the call, which answers as if asked there.
        const forwarded = outcome.owner === undefined ? undefined : await options.forwardTo?.(c.req.raw, outcome.owner, new TextEncoder().encode(JSON.stringify(answer)));
        if (forwarded) return forwarded;
        throw new OperatorProblem('ANSWER_HELD_ELSEWHERE', outcome.reason, { extra: { question: toQuestionView(outcome.question) } });
      }
    }
  });
  serve(table.listRunsRoute, async (c) => {
    const query = parseRunListQuery(new URL(c.req.url).searchParams);
    if (!query.ok) throw new OperatorProblem('INVALID_QUERY', `${query.problem.field}: ${query.problem.message}`, { field: query.problem.field });
    return jsonResponse((await runs.list(query.filter)).map(toRunSummary));
  });
  serve(table.getRunRoute, async (c) => {
    const id = c.req.param('id') ?? '';
    const run = await runs.get(id);
    if (run === undefined) throw new OperatorProblem('RUN_NOT_FOUND', `No run ${JSON.stringify(id)}`);
    return jsonResponse(toRunView(run));
  });
  const noConfig = (): never => {
    throw new OperatorProblem('NOT_FOUND', 'This gateway was not started from a config file it can reload');
  };
  serve(table.configRoute, async () => (options.config ? jsonResponse(options.config.info()) : noConfig()));
  serve(table.reloadConfigRoute, async (c) => {
    if (!options.config) return noConfig();
    const operator = operatorOf(c);
    logger.log('info', 'config reload asked for on the operator API', { operator: operator.subject, issuer: operator.issuer });
    const answer = await options.config.reload(operator);
    if (!answer.ok) throw new OperatorProblem('CONFIG_INVALID', answer.error, { extra: { config: answer.config } });
    return jsonResponse(answer);
  });
  serve(table.openApiDocumentRoute, async () => new Response(document(), { status: 200, headers: API_HEADERS }));
  serve(table.consolePageRoute, () => assets.page());
  const { signIn } = options;
  const noSignIn = (): never => {
    throw new OperatorProblem('NOT_FOUND', 'Sign-in with OpenID Connect is not configured (auth.operators.oidc)');
  };
  serve(table.signInRoute, (c) => (signIn ? signIn.login(c.req.raw) : noSignIn()));
  serve(table.callbackRoute, (c) => (signIn ? signIn.callback(c.req.raw) : noSignIn()));
  serve(table.logoutRoute, (c) => (signIn ? signIn.logout(c.req.raw) : noSignIn()));
  serve(table.consoleAssetRoute, (c) => assets.asset(c.req.param('asset') ?? ''));

  for (const [path, methods] of allowed) {
    app.all(path, (c) => {
      throw methodNotAllowed(c.req.method, methods.join(', '));
    });
  }
  app.all('/console/', () => new Response(null, { status: 308, headers: { location: '/console' } }));
  app.notFound((c) => operatorError('NOT_FOUND', `No operator route ${pathOf(c)}`));
  const failed = (req: Request, error: unknown): Response => {
    if (error instanceof OperatorProblem) return error.response;
    logger.log('error', 'operator route failed', { method: req.method, path: new URL(req.url).pathname, error: error instanceof Error ? error.message : String(error) });
    return operatorError('INTERNAL', 'Internal error; see the gateway log');
  };
  app.onError((error, c) => failed(c.req.raw, error));
  registerDocumentParts(app);

  function document(): string {
    documentText ??= openApiText(app);
    return documentText;
  }

  return {
    async handle(req) {
      if (!isOperatorPath(new URL(req.url).pathname)) return undefined;
      try {
        return await app.fetch(req);
      } catch (error) {
        // Hono hands only Error instances to onError; anything else thrown ends here.
        return failed(req, error);
      }
    },
    openApiText: document,
    close() {
      for (const stream of [...streams]) stream.end();
    },
  };
}
