/** @module The operator API's error catalogue (code → HTTP status) and the JSON error body built from it; docs/operator-api.md lists the same codes. */

/**
 * Every error the operator API answers with. Codes are stable and never reused; `operator-routes.test.ts`
 * checks that docs/operator-api.md lists exactly these, with these statuses.
 */
export const OPERATOR_ERRORS = {
  /** The body is not JSON (or not UTF-8). */
  INVALID_JSON: { status: 400, summary: 'The request body is not valid JSON.' },
  /** JSON of the wrong shape: an unknown action, `content` that is not an object, an unexpected key. */
  INVALID_BODY: { status: 400, summary: 'The request body does not have the documented shape; `field` names the offending key.' },
  /** An unknown query parameter, or a value it cannot take. */
  INVALID_QUERY: { status: 400, summary: 'A query parameter is unknown or has a value it cannot take; `field` names it.' },
  /** The desk refused the answer: it breaks the limits or the schema the question was asked with. The question stays open. */
  INVALID_ANSWER: { status: 400, summary: 'The answer breaks the limits or the schema of the question (`field` names the first offending one); the question stays open.' },
  /** The sign-in callback could not finish: no sign-in in progress, a state that does not match, the provider's refusal, a code or ID token that does not verify. */
  SIGN_IN_FAILED: { status: 400, summary: 'The OpenID Connect sign-in could not finish (no sign-in in progress, or it expired; the provider refused; the code or ID token did not verify). Sign in again.' },
  /** No credential, or one that is not accepted here. */
  UNAUTHORIZED: { status: 401, summary: 'No valid credential: the `Authorization: Bearer` token (the operator token where it is accepted, or an access token of the OpenID provider) is missing or wrong, or the console session is missing or expired.' },
  /** A state change authenticated by the session cookie without the session's CSRF token, or from another origin. */
  CSRF_REJECTED: { status: 403, summary: 'A request signed in by the console\'s session cookie that changes state must carry the session\'s `X-CSRF-Token` and come from the gateway\'s own origin.' },
  /** No such question. */
  QUESTION_NOT_FOUND: { status: 404, summary: 'No question has this id, or none this operator may answer (policy.answerers).' },
  /** No such composite run. */
  RUN_NOT_FOUND: { status: 404, summary: 'No composite run has this id.' },
  /** No such path under the operator API. */
  NOT_FOUND: { status: 404, summary: 'No such path under /api/questions or /api/runs.' },
  /** The path exists, the method does not (answered with `Allow`). */
  METHOD_NOT_ALLOWED: { status: 405, summary: 'The path exists but not with this method; `Allow` lists the methods it has.' },
  /** The question was settled already (by the host, another operator, expiry…); nothing changed. */
  ALREADY_SETTLED: { status: 409, summary: 'The question was settled already (by its host, another operator, its deadline…); the record is unchanged and comes back in `question`.' },
  /** A four-eyes question this operator approved already. */
  ALREADY_APPROVED: { status: 409, summary: 'You approved this four-eyes question already: another operator must approve it; the question is unchanged and comes back in `question`.' },
  /** An answer with a secret field whose call waits on another gateway instance, which the cluster link could not reach. */
  ANSWER_HELD_ELSEWHERE: {
    status: 409,
    summary:
      'The answer has a secret field and the call waits on another gateway instance, which could not be reached to take it (the store keeps only `[redacted]` of a secret); the question is unchanged and comes back in `question`. Answer it on that instance.',
  },
  /** The body is larger than the cap. */
  BODY_TOO_LARGE: { status: 413, summary: 'The request body is larger than 1 MiB + 64 KiB.' },
  /** `Content-Type` is not application/json. */
  UNSUPPORTED_MEDIA_TYPE: { status: 415, summary: 'A request with a body must be sent as `Content-Type: application/json`.' },
  /** POST /api/config/reload: the file does not validate, or could not be applied. */
  CONFIG_INVALID: { status: 422, summary: 'The config file does not validate (`message`: `file:line: path: reason`, as at start), or could not be applied; the running config stays, and `config` says which.' },
  /** A bug on our side (the message is generic; details go to the log). */
  INTERNAL: { status: 500, summary: 'Something failed inside the gateway; the log has the details.' },
  /** The OpenID provider cannot be reached (discovery or its keys), so a sign-in or a bearer token cannot be checked now. */
  SIGN_IN_UNAVAILABLE: { status: 503, summary: 'The OpenID provider cannot be reached now (its discovery document or keys), so sign-in and access tokens cannot be checked; try again shortly.' },
} as const satisfies Record<string, { status: number; summary: string }>;

export type OperatorErrorCode = keyof typeof OPERATOR_ERRORS;

export interface OperatorErrorBody {
  error: { code: OperatorErrorCode; message: string; field?: string };
}

/** Headers every operator API response carries: nothing is cached, nothing is sniffed. */
export const API_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** A JSON response with the API headers. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...API_HEADERS, ...headers } });
}

/** The catalogue status and the `{ error: { code, message, field? } }` body; `extra` adds top-level keys (the record of a 409). */
export function operatorError(
  code: OperatorErrorCode,
  message: string,
  options: ProblemOptions = {},
): Response {
  const error: OperatorErrorBody['error'] = { code, message };
  if (options.field !== undefined) error.field = options.field;
  return jsonResponse({ error, ...options.extra }, OPERATOR_ERRORS[code].status, options.headers);
}

export interface ProblemOptions {
  field?: string;
  headers?: Record<string, string>;
  extra?: Record<string, unknown>;
}

/** A catalogue error thrown by a handler or middleware; the app's one `onError` turns it into its response. */
export class OperatorProblem extends Error {
  readonly code: OperatorErrorCode;
  readonly options: ProblemOptions;

  constructor(code: OperatorErrorCode, message: string, options: ProblemOptions = {}) {
    super(message);
    this.name = 'OperatorProblem';
    this.code = code;
    this.options = options;
  }

  get response(): Response {
    return operatorError(this.code, this.message, this.options);
  }
}
