// @ts-check
/** @module The console's client of the operator REST API: every call carries the Bearer token; errors become ApiError with the body's code and field. */

/**
 * @typedef {{ action: 'accept' | 'decline' | 'cancel', content?: Record<string, unknown>, result?: Record<string, unknown> }} Answer
 * @typedef {{ kind: 'host', sessionId: string } | { kind: 'operator', name: string } | { kind: 'gateway', reason: string }} Answerer
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
 * @typedef {{ question: Question, audit: AuditEntry[], runId?: string, runStepId?: string }} QuestionDetail
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
 * @param {{ token: () => string | null, operator: () => string, onUnauthorized: () => void }} session
 */
export function createApi(session) {
  /**
   * @param {string} path
   * @param {RequestInit} [init]
   * @returns {Promise<any>}
   */
  async function call(path, init = {}) {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${session.token() ?? ''}`);
    headers.set('accept', 'application/json');
    const operator = session.operator();
    if (operator !== '') headers.set('x-switchboard-operator', operator);
    const response = await fetch(path, { ...init, headers, cache: 'no-store' });
    const body = await response.json().catch(() => undefined);
    if (response.ok) return body;
    if (response.status === 401) session.onUnauthorized();
    const error = body?.error ?? {};
    throw new ApiError(response.status, String(error.code ?? 'HTTP_' + response.status), String(error.message ?? response.statusText), error.field, body?.question);
  }

  return {
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
     * @returns {Promise<{ question: Question }>}
     */
    answer(id, answer) {
      return call(`/api/questions/${encodeURIComponent(id)}/answer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer) });
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
