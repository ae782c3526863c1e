/** @module The one table of operator routes: the router dispatches from it and the OpenAPI document is generated from it. */

import type { ComponentName } from './api-schemas.js';
import { listQuerySchema, runListQuerySchema } from './api-schemas.js';
import type { OperatorErrorCode } from './operator-errors.js';

/** A response body: a named schema, an array of one, or a media type described in words. */
export type ResponseBody = { schema: ComponentName } | { arrayOf: ComponentName } | { mediaType: string; description: string };

export interface RouteSpec {
  /** The OpenAPI operationId, and the key of the router's handler. */
  readonly id: string;
  readonly method: 'GET' | 'POST';
  /** A path template: literal segments and `{name}` segments (one whole segment each). */
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: 'questions' | 'runs' | 'console' | 'meta';
  /** Whether the route needs `Authorization: Bearer <token>`. */
  readonly auth: boolean;
  readonly pathParams?: Readonly<Record<string, string>>;
  /** The query, a strict zod object (GET /api/questions, GET /api/runs). */
  readonly query?: typeof listQuerySchema | typeof runListQuerySchema;
  /** The JSON request body. */
  readonly body?: ComponentName;
  readonly ok: { status: 200; description: string; body: ResponseBody };
  /** The catalogue errors this route can answer with (UNAUTHORIZED and INTERNAL are implied where they apply). */
  readonly errors: readonly OperatorErrorCode[];
}

export const OPERATOR_ROUTES = [
  {
    id: 'listQuestions',
    method: 'GET',
    path: '/api/questions',
    tag: 'questions',
    summary: 'List questions, newest first',
    description: 'Filters combine with AND. An unknown parameter is refused (400 INVALID_QUERY), so a typo never silently widens the list.',
    auth: true,
    query: listQuerySchema,
    ok: { status: 200, description: 'The matching questions, newest first.', body: { arrayOf: 'Question' } },
    errors: ['INVALID_QUERY'],
  },
  {
    id: 'questionEvents',
    method: 'GET',
    path: '/api/questions/events',
    tag: 'questions',
    summary: 'Live events (Server-Sent Events)',
    description:
      'A text/event-stream: first `event: ready` (data: {"serverTime": ISO time}), then `event: created` or `event: updated` with a QuestionEvent as data, and a `: keep-alive` comment every 15 s. Read it with fetch() and the Authorization header (EventSource cannot send one). After `ready`, list the questions again: events are not replayed.',
    auth: true,
    ok: { status: 200, description: 'The event stream, open until the client leaves.', body: { mediaType: 'text/event-stream', description: 'ready, created and updated events; keep-alive comments.' } },
    errors: [],
  },
  {
    id: 'getQuestion',
    method: 'GET',
    path: '/api/questions/{id}',
    tag: 'questions',
    summary: 'One question and its audit trail',
    auth: true,
    pathParams: { id: 'The question id.' },
    ok: { status: 200, description: 'The question and its audit trail (oldest first).', body: { schema: 'QuestionDetail' } },
    errors: ['QUESTION_NOT_FOUND'],
  },
  {
    id: 'answerQuestion',
    method: 'POST',
    path: '/api/questions/{id}/answer',
    tag: 'questions',
    summary: 'Answer an open question',
    description:
      'The answer is checked exactly as a host\'s would be (limits, the schema asked) and audited whatever the outcome. The operator\'s name for the audit comes from `X-Switchboard-Operator` (letters, digits, spaces and . _ @ + -; at most 64 characters; default `operator`).',
    auth: true,
    pathParams: { id: 'The question id.' },
    body: 'AnswerRequest',
    ok: { status: 200, description: 'The answer was taken; the settled question.', body: { schema: 'Answered' } },
    errors: ['INVALID_JSON', 'INVALID_BODY', 'INVALID_ANSWER', 'QUESTION_NOT_FOUND', 'ALREADY_SETTLED', 'BODY_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'],
  },
  {
    id: 'listRuns',
    method: 'GET',
    path: '/api/runs',
    tag: 'runs',
    summary: 'List composite runs, newest first',
    description:
      'Each run as a summary (no step details; GET /api/runs/{id} has them). Filters combine with AND. An unknown parameter is refused (400 INVALID_QUERY). Runs are not pushed live: list again to follow them.',
    auth: true,
    query: runListQuerySchema,
    ok: { status: 200, description: 'The matching runs, newest first (by startedAt).', body: { arrayOf: 'RunSummary' } },
    errors: ['INVALID_QUERY'],
  },
  {
    id: 'getRun',
    method: 'GET',
    path: '/api/runs/{id}',
    tag: 'runs',
    summary: 'One composite run with every step',
    description: 'Each step with its times, attempts, outcome, answer, reason, output, and the broker question it asked (questionId).',
    auth: true,
    pathParams: { id: 'The run id.' },
    ok: { status: 200, description: 'The run.', body: { schema: 'Run' } },
    errors: ['RUN_NOT_FOUND'],
  },
  {
    id: 'openApiDocument',
    method: 'GET',
    path: '/api/openapi.json',
    tag: 'meta',
    summary: 'This document',
    auth: true,
    ok: { status: 200, description: 'The OpenAPI 3.1 document of the operator API.', body: { mediaType: 'application/json', description: 'An OpenAPI 3.1 document.' } },
    errors: [],
  },
  {
    id: 'consolePage',
    method: 'GET',
    path: '/console',
    tag: 'console',
    summary: 'The operator console (HTML)',
    description: 'No authentication: the page holds no data; it asks for the token and calls the API with it. Served with a strict Content-Security-Policy.',
    auth: false,
    ok: { status: 200, description: 'The console page.', body: { mediaType: 'text/html', description: 'The console page.' } },
    errors: [],
  },
  {
    id: 'consoleAsset',
    method: 'GET',
    path: '/console/{asset}',
    tag: 'console',
    summary: 'A static file of the console (script, style sheet)',
    auth: false,
    pathParams: { asset: 'A file name such as app.js or console.css.' },
    ok: { status: 200, description: 'The file.', body: { mediaType: 'application/octet-stream', description: 'JavaScript modules (text/javascript) and style sheets (text/css).' } },
    errors: ['NOT_FOUND'],
  },
] as const satisfies readonly RouteSpec[];

export type RouteId = (typeof OPERATOR_ROUTES)[number]['id'];

/** The `{name}` values of `pathname` if it fits `template`, else undefined. Segments are percent-decoded. */
export function matchPath(template: string, pathname: string): Record<string, string> | undefined {
  const want = template.split('/');
  const got = pathname.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const pattern = want[i] ?? '';
    const segment = got[i] ?? '';
    if (pattern.startsWith('{') && pattern.endsWith('}')) {
      if (segment === '') return undefined;
      let decoded: string;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        return undefined;
      }
      params[pattern.slice(1, -1)] = decoded;
    } else if (pattern !== segment) {
      return undefined;
    }
  }
  return params;
}

/**
 * Whether a path belongs to the operator surfaces at all (everything else is left to the rest of the edge).
 * All of `/api/` is theirs, known or not, so that without the token every such path is 401 alike.
 */
export function isOperatorPath(pathname: string): boolean {
  return (
    pathname === '/api' ||
    pathname.startsWith('/api/') ||
    pathname === '/console' ||
    pathname.startsWith('/console/')
  );
}
