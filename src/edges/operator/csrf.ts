/**
 * @module CSRF protection of the console's cookie sign-in: a request that changes state and is authenticated by the
 * session cookie must carry `X-CSRF-Token` equal to the token sealed in that cookie (the console reads it from
 * GET /api/session, which no other origin can read), must not say it comes from another site (`Origin`,
 * `Sec-Fetch-Site`). Bearer requests need none of this: a browser never adds an Authorization header on its own.
 */

import { createHash, timingSafeEqual } from 'node:crypto';

import { OperatorProblem } from './operator-errors.js';

export const CSRF_HEADER = 'x-csrf-token';

/** Methods that change nothing. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Whether `req` changes state. */
export function changesState(req: Request): boolean {
  return !SAFE_METHODS.has(req.method.toUpperCase());
}

/**
 * Throws CSRF_REJECTED unless `req` (authenticated by a session whose token is `expected`) may change state.
 * `origins` are the gateway's own origins (the request's, and `http.publicUrl`'s when set); `'checked'` for a
 * request another instance of the cluster forwarded, which checked its Origin against its own.
 */
export function checkCsrf(req: Request, expected: string, origins: readonly string[] | 'checked'): void {
  if (!changesState(req)) return;
  const origin = req.headers.get('origin');
  if (origin !== null && origins !== 'checked' && !origins.includes(origin)) {
    throw new OperatorProblem('CSRF_REJECTED', `A request from origin ${JSON.stringify(origin.slice(0, 200))} may not change anything here`);
  }
  if (req.headers.get('sec-fetch-site') === 'cross-site') throw new OperatorProblem('CSRF_REJECTED', 'A cross-site request may not change anything here');
  const sent = req.headers.get(CSRF_HEADER);
  // Both sides hashed, so the comparison takes the same time whatever was sent.
  if (sent === null || !timingSafeEqual(digest(sent), digest(expected))) {
    throw new OperatorProblem('CSRF_REJECTED', `Send the session's CSRF token (GET /api/session: csrf) as ${CSRF_HEADER}`);
  }
}
