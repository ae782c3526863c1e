// @ts-check
/**
 * @module The console's client of the operator REST API: every call carries the Bearer token (token sign-in) or the
 * session cookie and, on a POST, its CSRF token (OpenID Connect sign-in); errors become ApiError with the body's code and field.
 */

/**
 * @typedef {{ action: 'accept' | 'decline' | 'cancel', content?: Record<string, unknown>, result?: Record<string, unknown> }} Answer
 * @typedef {{ kind: 'host', sessionId: string } | { kind: 'operator', name: string, subject?: string, issuer?: string } | { kind: 'gateway', reason: string }} Answerer
 * @typedef {{ needed: number, approvers: { name: string, subject: string, issuer: string, at: string }[] }} ApprovalState
 * @typedef {object} Question
 * @property {string} id
 * @property {string} state
 * @property {'elicitation/create' | 'sampling/createMessage' | 'roots/list'} method
 * @property {Record<string, unknown>} params
 * @property {Record<string, unknown>} [hostParams]
 * @property {string} upstream
 * @property {string} [tool]
 * @property {string} [hostSessionId]
 * @property {string} [principal]
 * @property {string} [clientName]
 * @property {Record<string, unknown>} [arguments]
 * @property {ApprovalState} [approvals]
 * @property {string} [hostRevision]
 * @property {string} route
 * @property {string} audience
 * @property {string} [audienceReason]
 * @property {string} deadline
 * @property {Answer} [answer]
 * @property {Answerer} [answeredBy]
 * @property {string} createdAt
 * @property {string} updatedAt
 * @property {string} [settledAt]
 * @typedef {{ questionId: string, at: string, actor: string, action: string, detail?: Record<string, unknown> }} AuditEntry
 * @typedef {{ target: string, event: string, eventId?: string, state: 'sent' | 'retrying' | 'failed', attempts: number, status?: number, error?: string, at: string }} DeliveryStatus
 * @typedef {{ question: Question, audit: AuditEntry[], deliveries?: DeliveryStatus[], runId?: string, runStepId?: string }} QuestionDetail
 * @typedef {object} RunStep
 * @property {string} id
 * @property {'tool' | 'elicit' | 'forEach'} kind
 * @property {string} state
 * @property {string} [startedAt]
 * @property {string} [finishedAt]
 * @property {number} [attempts]
 * @property {string} [reason]
 * @property {'accept' | 'decline' | 'cancel' | 'timeout'} [outcome]
 * @property {Record<string, unknown>} [answer]
 * @property {string} [questionId]
 * @property {unknown} [output]
 * @typedef {object} Run
 * @property {string} id
 * @property {string} composite
 * @property {string} hostSessionId
 * @property {string} [principal]
 * @property {string} state
 * @property {Record<string, unknown>} input
 * @property {RunStep[]} steps
 * @property {string} [summary]
 * @property {string} startedAt
 * @property {string} [finishedAt]
 * @typedef {object} RunSummary
 * @property {string} id
 * @property {string} composite
 * @property {string} hostSessionId
 * @property {string} state
 * @property {string} [summary]
 * @property {string} startedAt
 * @property {string} [finishedAt]
 * @property {number} [durationMs]
 * @property {number} steps
 * @property {Record<string, number>} stepStates
 * @property {string[]} questionIds
 */

export const OPEN_STATES = ['pending', 'delivered'];

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   * @param {string | undefined} field
   * @param {Question | undefined} question the record sent with a 409
   */
  constructor(status, code, message, field, question) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
    this.question = question;
  }
}

/**
 * @typedef {{ issuer: string, subject: string, name: string, groups: string[], via: 'session' | 'bearer' | 'token', csrf?: string, expiresAt?: string }} Session
 * @typedef {{ oidc: boolean, token: boolean, signIn?: string }} AuthMethods
 * @typedef {{ question: Question, state?: 'awaiting-approval', approvals?: number, needed?: number }} Answered
 */

/**
 * Which sign-ins the gateway offers this browser (needs no credential).
 * @returns {Promise<AuthMethods>}
 */
export async function authMethods() {
  const response = await fetch('/api/auth', { headers: { accept: 'application/json' }, cache: 'no-store' });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
}

/**
 * The operator this browser's session cookie signs in, or undefined without one.
 * @returns {Promise<Session | undefined>}
 */
export async function cookieSession() {
  const response = await fetch('/api/session', { headers: { accept: 'application/json' }, cache: 'no-store', credentials: 'same-origin' });
  return response.ok ? response.json() : undefined;
}

/**
 * @param {{ token: () => string | null, operator: () => string, csrf: () => string | null, onUnauthorized: () => void }} session
 */
export function createApi(session) {
  /**
   * @param {string} path
   * @param {RequestInit} [init]
   * @returns {Promise<any>}
   */
  async function call(path, init = {}) {
    const headers = new Headers(init.headers);
    const token = session.token();
    if (token !== null) headers.set('authorization', `Bearer ${token}`);
    headers.set('accept', 'application/json');
    const operator = session.operator();
    if (token !== null && operator !== '') headers.set('x-switchboard-operator', operator);
    const csrf = session.csrf();
    if (csrf !== null && (init.method ?? 'GET') !== 'GET') headers.set('x-csrf-token', csrf);
    const response = await fetch(path, { ...init, headers, cache: 'no-store', credentials: 'same-origin' });
    const body = await response.json().catch(() => undefined);
    if (response.ok) return body;
    if (response.status === 401) session.onUnauthorized();
    const error = body?.error ?? {};
    throw new ApiError(response.status, String(error.code ?? 'HTTP_' + response.status), String(error.message ?? response.statusText), error.field, body?.question);
  }

  return {
    /**
     * The config in force: its version, when it was loaded, how many loads so far.
     * @returns {Promise<{ version: string, loadedAt: string, generation: number, file: string }>}
     */
    config() {
      return call('/api/config');
    },
    /**
     * @param {Record<string, string | string[] | undefined>} [filter]
     * @returns {Promise<Question[]>}
     */
    list(filter = {}) {
      return call(`/api/questions${queryOf(filter)}`);
    },
    /**
     * @param {string} id
     * @returns {Promise<QuestionDetail>}
     */
    get(id) {
      return call(`/api/questions/${encodeURIComponent(id)}`);
    },
    /**
     * @param {string} id
     * @param {Answer} answer
     * @returns {Promise<Answered>} with `state: 'awaiting-approval'` when a four-eyes question needs more approvals
     */
    answer(id, answer) {
      return call(`/api/questions/${encodeURIComponent(id)}/answer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer) });
    },
    /** Ends the console session (OpenID Connect sign-in). */
    async signOut() {
      await call('/console/logout', { method: 'POST' }).catch(() => undefined);
    },
    /**
     * Composite runs, newest first.
     * @param {Record<string, string | string[] | undefined>} [filter] composite, state, limit, before
     * @returns {Promise<RunSummary[]>}
     */
    listRuns(filter = {}) {
      return call(`/api/runs${queryOf(filter)}`);
    },
    /**
     * @param {string} id
     * @returns {Promise<Run>}
     */
    getRun(id) {
      return call(`/api/runs/${encodeURIComponent(id)}`);
    },
  };
}

/**
 * A query string (with its `?`, or empty) from a filter: lists repeat the key, empty values are left out.
 * @param {Record<string, string | string[] | undefined>} filter
 */
function queryOf(filter) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    for (const one of [value ?? []].flat()) if (one !== '') query.append(key, one);
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** @typedef {ReturnType<typeof createApi>} Api */
