/** @module The operator routes as @hono/zod-openapi `createRoute` definitions: the app serves them and the OpenAPI document is generated from them. */

import { createRoute, z } from '@hono/zod-openapi';
import type { RouteConfig } from '@hono/zod-openapi';

import { answeredSchema, answerRequestSchema, authMethodsSchema, errorBodySchema, sessionSchema, listQuerySchema, questionDetailSchema, questionViewSchema, runListQuerySchema, runSchema, runSummarySchema } from './api-schemas.js';
import { configInfoSchema, reloadAppliedSchema } from './config-schemas.js';
import { OPERATOR_ERRORS } from './operator-errors.js';
import type { OperatorErrorCode } from './operator-errors.js';

type Responses = RouteConfig['responses'];

/** The operator token or an access token of the OpenID provider as a Bearer header, or the console's session cookie. */
const BEARER: Record<string, string[]>[] = [{ bearer: [] }, { session: [] }];

/** A 200 body that is not JSON: its media type, described in words. */
function textBody(description: string, mediaType: string, what: string): Responses[string] {
  return { description, content: { [mediaType]: { schema: { type: 'string', description: what } } } };
}

/** The error responses of a route, one per status, naming the catalogue codes that share it (UNAUTHORIZED first where the token is needed). */
function errorResponses(auth: boolean, codes: readonly OperatorErrorCode[]): Responses {
  const byStatus = new Map<number, OperatorErrorCode[]>();
  for (const code of new Set([...(auth ? (['UNAUTHORIZED', 'SIGN_IN_UNAVAILABLE'] as const) : []), ...codes])) {
    const { status } = OPERATOR_ERRORS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Responses = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: list.map((code) => `${code}: ${OPERATOR_ERRORS[code].summary}`).join(' '),
      ...(status === 401 ? { headers: { 'WWW-Authenticate': { description: 'Bearer', schema: { type: 'string' } } } } : {}),
      content: { 'application/json': { schema: errorBodySchema } },
    };
  }
  return responses;
}

const idParams = (description: string) => z.object({ id: z.string().meta({ param: { description } }) });

export const listQuestionsRoute = createRoute({
  operationId: 'listQuestions',
  method: 'get',
  path: '/api/questions',
  tags: ['questions'],
  summary: 'List questions, newest first',
  description: 'Filters combine with AND. An unknown parameter is refused (400 INVALID_QUERY), so a typo never silently widens the list.',
  security: BEARER,
  request: { query: listQuerySchema },
  responses: {
    200: { description: 'The matching questions, newest first.', content: { 'application/json': { schema: z.array(questionViewSchema) } } },
    ...errorResponses(true, ['INVALID_QUERY']),
  },
});

export const questionEventsRoute = createRoute({
  operationId: 'questionEvents',
  method: 'get',
  path: '/api/questions/events',
  tags: ['questions'],
  summary: 'Live events (Server-Sent Events)',
  description:
    'A text/event-stream: first `event: ready` (data: {"serverTime": ISO time}), then `event: created` or `event: updated` with a QuestionEvent as data, and a `: keep-alive` comment every 15 s. Read it with fetch() and the Authorization header (EventSource cannot send one). After `ready`, list the questions again: events are not replayed.',
  security: BEARER,
  responses: {
    200: textBody('The event stream, open until the client leaves.', 'text/event-stream', 'ready, created and updated events; keep-alive comments.'),
    ...errorResponses(true, []),
  },
});

export const getQuestionRoute = createRoute({
  operationId: 'getQuestion',
  method: 'get',
  path: '/api/questions/{id}',
  tags: ['questions'],
  summary: 'One question and its audit trail',
  security: BEARER,
  request: { params: idParams('The question id.') },
  responses: {
    200: { description: 'The question and its audit trail (oldest first).', content: { 'application/json': { schema: questionDetailSchema } } },
    ...errorResponses(true, ['QUESTION_NOT_FOUND']),
  },
});

export const answerQuestionRoute = createRoute({
  operationId: 'answerQuestion',
  method: 'post',
  path: '/api/questions/{id}/answer',
  tags: ['questions'],
  summary: 'Answer an open question',
  description:
    'The answer is checked exactly as a host\'s would be (limits, the schema asked) and audited whatever the outcome, with the operator\'s verified identity. With the shared token (and no OpenID Connect) the audit name comes from `X-Switchboard-Operator` (letters, digits, spaces and . _ @ + -; at most 64 characters; default `operator`). A question of a tool with `questions.tools.<tool>.approvers` ≥ 2 settles only when that many different operators have accepted: until then an accept answers 202 `awaiting-approval`; a decline by any settles it. With the session cookie, send `X-CSRF-Token`.',
  security: BEARER,
  request: { params: idParams('The question id.'), body: { required: true, content: { 'application/json': { schema: answerRequestSchema } } } },
  responses: {
    200: { description: 'The answer was taken; the settled question.', content: { 'application/json': { schema: answeredSchema } } },
    202: { description: 'Four-eyes: the accept was recorded as this operator\'s approval; the question stays open until enough operators approved.', content: { 'application/json': { schema: answeredSchema } } },
    ...errorResponses(true, ['INVALID_JSON', 'INVALID_BODY', 'INVALID_ANSWER', 'CSRF_REJECTED', 'QUESTION_NOT_FOUND', 'ALREADY_SETTLED', 'ALREADY_APPROVED', 'ANSWER_HELD_ELSEWHERE', 'BODY_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'SIGN_IN_UNAVAILABLE']),
  },
});

export const authMethodsRoute = createRoute({
  operationId: 'authMethods',
  method: 'get',
  path: '/api/auth',
  tags: ['sign-in'],
  summary: 'Which sign-ins exist',
  description: 'Needs no credential: the console asks it first, to offer OpenID Connect sign-in, the operator token, or both.',
  security: [],
  responses: { 200: { description: 'The sign-in methods for this client.', content: { 'application/json': { schema: authMethodsSchema } } } },
});

export const sessionRoute = createRoute({
  operationId: 'session',
  method: 'get',
  path: '/api/session',
  tags: ['sign-in'],
  summary: 'Who am I',
  description: 'The operator this request is authenticated as; with the console\'s session cookie, also the CSRF token.',
  security: BEARER,
  responses: {
    200: { description: 'The operator.', content: { 'application/json': { schema: sessionSchema } } },
    ...errorResponses(true, ['SIGN_IN_UNAVAILABLE']),
  },
});

export const signInRoute = createRoute({
  operationId: 'signIn',
  method: 'get',
  path: '/console/login',
  tags: ['sign-in'],
  summary: 'Sign in with OpenID Connect',
  description: 'Redirects the browser to the provider (authorization code, PKCE S256, state, nonce), with the sign-in sealed in a 10-minute cookie for the callback. 404 without auth.operators.oidc.',
  security: [],
  responses: {
    302: { description: 'To the provider\'s authorization endpoint.' },
    ...errorResponses(false, ['NOT_FOUND', 'SIGN_IN_UNAVAILABLE']),
  },
});

export const callbackRoute = createRoute({
  operationId: 'signInCallback',
  method: 'get',
  path: '/console/callback',
  tags: ['sign-in'],
  summary: 'Where the provider sends the browser back',
  description:
    'Exchanges the code (PKCE), verifies the ID token, and sets the session cookie (HttpOnly, SameSite=Strict, Path=/, Secure unless the gateway listens on loopback, Max-Age = sessionTtl); then a small page moves on to /console.',
  security: [],
  responses: {
    200: textBody('Signed in: a page that moves on to /console.', 'text/html', 'A page that moves on to /console.'),
    ...errorResponses(false, ['SIGN_IN_FAILED', 'NOT_FOUND', 'SIGN_IN_UNAVAILABLE']),
  },
});

export const logoutRoute = createRoute({
  operationId: 'signOut',
  method: 'post',
  path: '/console/logout',
  tags: ['sign-in'],
  summary: 'Sign out of the console',
  description: 'Clears the session cookie (send X-CSRF-Token). The cookie is stateless: a copy kept elsewhere stays valid until it expires.',
  security: BEARER,
  responses: {
    204: { description: 'Signed out.' },
    ...errorResponses(true, ['CSRF_REJECTED', 'NOT_FOUND', 'SIGN_IN_UNAVAILABLE']),
  },
});

export const listRunsRoute = createRoute({
  operationId: 'listRuns',
  method: 'get',
  path: '/api/runs',
  tags: ['runs'],
  summary: 'List composite runs, newest first',
  description:
    'Each run as a summary (no step details; GET /api/runs/{id} has them). Filters combine with AND. An unknown parameter is refused (400 INVALID_QUERY). Runs are not pushed live: list again to follow them.',
  security: BEARER,
  request: { query: runListQuerySchema },
  responses: {
    200: { description: 'The matching runs, newest first (by startedAt).', content: { 'application/json': { schema: z.array(runSummarySchema) } } },
    ...errorResponses(true, ['INVALID_QUERY']),
  },
});

export const getRunRoute = createRoute({
  operationId: 'getRun',
  method: 'get',
  path: '/api/runs/{id}',
  tags: ['runs'],
  summary: 'One composite run with every step',
  description: 'Each step with its times, attempts, outcome, answer, reason, output, and the desk question it asked (questionId).',
  security: BEARER,
  request: { params: idParams('The run id.') },
  responses: {
    200: { description: 'The run.', content: { 'application/json': { schema: runSchema } } },
    ...errorResponses(true, ['RUN_NOT_FOUND']),
  },
});

export const openApiDocumentRoute = createRoute({
  operationId: 'openApiDocument',
  method: 'get',
  path: '/api/openapi.json',
  tags: ['meta'],
  summary: 'This document',
  security: BEARER,
  responses: {
    200: textBody('The OpenAPI 3.1 document of the operator API.', 'application/json', 'An OpenAPI 3.1 document.'),
    ...errorResponses(true, []),
  },
});

export const configRoute = createRoute({
  operationId: 'getConfig',
  method: 'get',
  path: '/api/config',
  tags: ['config'],
  summary: 'The config in force: its version and when it was loaded',
  security: BEARER,
  responses: {
    200: { description: 'The version of the settings in force.', content: { 'application/json': { schema: configInfoSchema } } },
    ...errorResponses(true, ['NOT_FOUND']),
  },
});

export const reloadConfigRoute = createRoute({
  operationId: 'reloadConfig',
  method: 'post',
  path: '/api/config/reload',
  tags: ['config'],
  summary: 'Read the config file again and apply it (as SIGHUP does)',
  description:
    'The file is checked whole, as at start; a file that does not validate is refused (422, the running config stays). Otherwise added upstreams are probed, removed ones closed, changed ones reconnected, hosts told their lists changed; composites, policies, routes, timeouts and session caps hold for new work. Settings only a restart applies are named in `needsRestart`. No body.',
  security: BEARER,
  responses: {
    200: { description: 'Applied (or nothing changed).', content: { 'application/json': { schema: reloadAppliedSchema } } },
    ...errorResponses(true, ['NOT_FOUND', 'CONFIG_INVALID']),
  },
});

export const consolePageRoute = createRoute({
  operationId: 'consolePage',
  method: 'get',
  path: '/console',
  tags: ['console'],
  summary: 'The operator console (HTML)',
  description: 'No authentication: the page holds no data; it asks for the token and calls the API with it. Served with a strict Content-Security-Policy.',
  security: [],
  responses: { 200: textBody('The console page.', 'text/html', 'The console page.') },
});

export const consoleAssetRoute = createRoute({
  operationId: 'consoleAsset',
  method: 'get',
  path: '/console/{asset}',
  tags: ['console'],
  summary: 'A static file of the console (script, style sheet)',
  security: [],
  request: { params: z.object({ asset: z.string().meta({ param: { description: 'A file name such as app.js or console.css.' } }) }) },
  responses: {
    200: textBody('The file.', 'application/octet-stream', 'JavaScript modules (text/javascript) and style sheets (text/css).'),
    ...errorResponses(false, ['NOT_FOUND']),
  },
});

/** Every route, in the order the app matches them (the events stream before `/api/questions/{id}`). */
export const OPERATOR_ROUTES = [
  authMethodsRoute,
  sessionRoute,
  listQuestionsRoute,
  questionEventsRoute,
  getQuestionRoute,
  answerQuestionRoute,
  listRunsRoute,
  getRunRoute,
  configRoute,
  reloadConfigRoute,
  openApiDocumentRoute,
  consolePageRoute,
  signInRoute,
  callbackRoute,
  logoutRoute,
  consoleAssetRoute,
] as const;

/** Whether the route needs `Authorization: Bearer <token>`. */
export function needsToken(route: RouteConfig): boolean {
  return (route.security ?? []).length > 0;
}

/**
 * Whether a path belongs to the operator surfaces at all (everything else is left to the rest of the edge).
 * All of `/api/` is theirs, known or not, so that without the token every such path is 401 alike.
 */
export function isOperatorPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/') || pathname === '/console' || pathname.startsWith('/console/');
}
