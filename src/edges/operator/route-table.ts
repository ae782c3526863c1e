/** @module The operator routes as @hono/zod-openapi `createRoute` definitions: the app serves them and the OpenAPI document is generated from them. */

import { createRoute, z } from '@hono/zod-openapi';
import type { RouteConfig } from '@hono/zod-openapi';

import { answeredSchema, answerRequestSchema, errorBodySchema, listQuerySchema, questionDetailSchema, questionViewSchema, runListQuerySchema, runSchema, runSummarySchema } from './api-schemas.js';
import { OPERATOR_ERRORS } from './operator-errors.js';
import type { OperatorErrorCode } from './operator-errors.js';

type Responses = RouteConfig['responses'];

const BEARER = [{ bearer: [] }];

/** A 200 body that is not JSON: its media type, described in words. */
function textBody(description: string, mediaType: string, what: string): Responses[string] {
  return { description, content: { [mediaType]: { schema: { type: 'string', description: what } } } };
}

/** The error responses of a route, one per status, naming the catalogue codes that share it (UNAUTHORIZED first where the token is needed). */
function errorResponses(auth: boolean, codes: readonly OperatorErrorCode[]): Responses {
  const byStatus = new Map<number, OperatorErrorCode[]>();
  for (const code of [...(auth ? (['UNAUTHORIZED'] as const) : []), ...codes]) {
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
    'The answer is checked exactly as a host\'s would be (limits, the schema asked) and audited whatever the outcome. The operator\'s name for the audit comes from `X-Switchboard-Operator` (letters, digits, spaces and . _ @ + -; at most 64 characters; default `operator`).',
  security: BEARER,
  request: { params: idParams('The question id.'), body: { required: true, content: { 'application/json': { schema: answerRequestSchema } } } },
  responses: {
    200: { description: 'The answer was taken; the settled question.', content: { 'application/json': { schema: answeredSchema } } },
    ...errorResponses(true, ['INVALID_JSON', 'INVALID_BODY', 'INVALID_ANSWER', 'QUESTION_NOT_FOUND', 'ALREADY_SETTLED', 'ANSWER_HELD_ELSEWHERE', 'BODY_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE']),
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
  listQuestionsRoute,
  questionEventsRoute,
  getQuestionRoute,
  answerQuestionRoute,
  listRunsRoute,
  getRunRoute,
  openApiDocumentRoute,
  consolePageRoute,
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
