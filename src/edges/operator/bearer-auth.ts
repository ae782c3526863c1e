/** @module Checks `Authorization: Bearer <token>` in constant time, never keeping or echoing what was sent. */

import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * A checker for one configured token. Both sides are hashed first, so the comparison takes the same
 * time whatever the length or content of what was sent (timingSafeEqual needs equal lengths).
 */
export function createBearerCheck(token: string): (authorization: string | null) => boolean {
  if (token.length === 0) throw new Error('the operator token must not be empty');
  if (/\s/.test(token)) throw new Error('the operator token must not contain white space (it could never be sent as one Bearer token)');
  const expected = digest(token);
  return (authorization) => {
    if (authorization === null) return false;
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
    // Hash something even when the header is malformed, so a malformed header is not measurably faster.
    const presented = digest(match?.[1] ?? '');
    return timingSafeEqual(presented, expected) && match !== null;
  };
}
