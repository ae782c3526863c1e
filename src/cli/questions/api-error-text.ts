/** @module One line for each way the operator API refuses a request (401 token, 400 field, 404 id, 409 settled by whom). */

import type { QuestionView } from '../../edges/operator/api-schemas.js';
import type { OperatorApiError } from '../operator-client.js';
import { safeText } from '../terminal-text.js';

/** Who settled a question, in words: `operator Ada`, `its host (session 3f2…)`, `the gateway (deadline passed)`. */
export function describeAnswerer(by: QuestionView['answeredBy']): string | undefined {
  if (by === undefined) return undefined;
  switch (by.kind) {
    case 'host':
      return `its host (session ${by.sessionId})`;
    case 'operator':
      return by.subject !== undefined && by.subject !== by.name ? `operator ${by.name} <${by.subject}>` : `operator ${by.name}`;
    default:
      return `the gateway (${by.reason})`;
  }
}

/** `answered by operator Ada at 2025-06-01T12:00:00.000Z`, or just the state when nothing more is known. */
export function describeSettlement(question: QuestionView): string {
  const by = describeAnswerer(question.answeredBy);
  const at = question.settledAt ?? question.updatedAt;
  return `${question.state}${by === undefined ? '' : ` by ${by}`} at ${at}`;
}

/** `text` with every occurrence of the secret replaced, so nothing the server says can show the token. */
export function redact(text: string, secret: string | undefined): string {
  return secret === undefined || secret === '' ? text : text.split(secret).join('[redacted]');
}

/**
 * The message for a refusal of the request about question `id` (undefined when the request was a list).
 * It never contains the token, even when the server's message would.
 */
export function apiErrorText(error: OperatorApiError, id: string | undefined, token?: string): string {
  const server = safeText(redact(error.message, token));
  const field = error.field === undefined ? '' : ` (field ${safeText(redact(error.field, token))})`;
  switch (error.status) {
    case 401:
      return 'the token was refused (give the operator token with --token or SWITCHBOARD_CONSOLE_TOKEN)';
    case 400:
      if (error.apiCode === 'INVALID_ANSWER') return `the answer was refused${field}: ${server}; the question stays open`;
      return `the request was refused${field}: ${server}`;
    case 404:
      if (error.apiCode === 'QUESTION_NOT_FOUND' && id !== undefined) return `no question has the id ${JSON.stringify(safeText(id))}`;
      if (error.apiCode === undefined) return 'HTTP 404: is this a Switchboard gateway with the operator API enabled?';
      return `not found: ${server}`;
    case 409: {
      const what = id === undefined ? 'the question' : `question ${safeText(id)}`;
      return error.question === undefined ? `${what} was already settled` : `${what} was already settled: ${safeText(describeSettlement(error.question))}`;
    }
    default:
      return `the gateway refused the request: HTTP ${error.status}${error.apiCode === undefined ? '' : ` ${error.apiCode}`}${field}: ${server}`;
  }
}
