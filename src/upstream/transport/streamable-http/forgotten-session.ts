/** @module Whether an upstream's HTTP refusal says it no longer knows the session we hold: 404, or another 4xx whose error says so. */

/** "Session not found", "Unknown session", "No valid session ID provided", "Invalid or expired session"… */
const SESSION_UNKNOWN = /\bsession\b.*\b(not found|unknown|invalid|expired|no longer|does not exist|doesn't exist|not valid|terminated)\b|\b(no valid|unknown|invalid|expired)\b.*\bsession\b/i;
/** An SDK server with one transport for the whole process, restarted: it was never initialized by us. */
const NOT_INITIALIZED = /\bnot initiali[sz]ed\b/i;

/**
 * `detail` is the JSON-RPC error message of the body, else the body text. Only meaningful for a request sent on
 * a session we hold. 401 and 403 are about credentials and 5xx about the server, never about the session.
 */
export function refusalForgetsSession(status: number, detail: string): boolean {
  if (status === 404) return true;
  if (status < 400 || status >= 500 || status === 401 || status === 403) return false;
  return SESSION_UNKNOWN.test(detail) || NOT_INITIALIZED.test(detail);
}
