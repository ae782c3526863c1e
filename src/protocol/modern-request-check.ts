/** @module The checks a 2026-07-28 request passes before it is served, in the spec's order, with the exact error and HTTP status of the first failure. */

import type { HeaderSource } from './header-source.js';
import type { JsonRpcErrorObject } from './jsonrpc.js';
import { modernHttpStatus } from './modern-errors.js';
import { checkModernHeaders } from './modern-headers.js';
import type { RequestEnvelope } from './request-envelope.js';
import { parseRequestEnvelope } from './request-envelope.js';
import { SUPPORTED_REVISIONS } from './revisions.js';

export type ModernRequestCheck = { ok: true; envelope: RequestEnvelope } | { ok: false; error: JsonRpcErrorObject; httpStatus: number };

/**
 * For a request classified `modern`: over HTTP (`headers` given) the header rules first (-32020),
 * then the envelope (-32602 malformed, -32022 unsupported version listing `advertised`). Over stdio
 * (`headers` undefined) only the envelope. Capability checks (-32021) come later, when it is known
 * what the request needs.
 */
export function checkModernRequest(
  message: { method: string; params?: unknown },
  headers: HeaderSource | undefined,
  advertised: readonly string[] = SUPPORTED_REVISIONS,
): ModernRequestCheck {
  if (headers !== undefined) {
    const headerCheck = checkModernHeaders(headers, message);
    if (!headerCheck.ok) return { ok: false, error: headerCheck.error, httpStatus: modernHttpStatus(headerCheck.error.code) };
  }
  const parsed = parseRequestEnvelope(message.params, advertised);
  if (!parsed.ok) return { ok: false, error: parsed.error, httpStatus: modernHttpStatus(parsed.error.code) };
  return { ok: true, envelope: parsed.envelope };
}
