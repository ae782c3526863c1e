/** @module Which era a POSTed message speaks (legacy sessions or 2026-07-28 stateless), from its body and headers; contradictions refused. */

import { RpcCode } from './errors.js';
import type { HeaderSource } from './header-source.js';
import { MCP_HEADER } from './header-source.js';
import type { JsonRpcErrorObject, JsonRpcId } from './jsonrpc.js';
import { isObject } from './jsonrpc.js';
import { headerMismatchError } from './modern-errors.js';
import { envelopeProtocolVersion, hasRequestEnvelope } from './request-envelope.js';
import { eraOf } from './revisions.js';

export type EraVerdict =
  | { era: 'legacy'; reason: string }
  | { era: 'modern'; reason: string }
  /** Signals of both eras: answer `error` with HTTP 400 and touch nothing. `id` is the body's id, if any. */
  | { era: 'refused'; reason: string; error: JsonRpcErrorObject; id: JsonRpcId | null };

/**
 * Classifies one POST body (already parsed JSON, not yet validated) with its headers.
 *
 * Legacy signals: `initialize` (without the envelope); an `Mcp-Session-Id`; an `MCP-Protocol-Version` of the legacy era; a
 * JSON-RPC response or a batch (only legacy hosts POST those). Modern signals: an envelope key in
 * `params._meta`; an `MCP-Protocol-Version` of the modern era (2026-07-28 or later).
 *
 * - only modern signals: `modern` (the header and envelope checks come next and may still refuse);
 * - otherwise, no modern signal: `legacy` (a 2025-03-26 host may send no version header at all);
 * - both: refused. A header that differs from the envelope's version is -32020 (the header must
 *   equal it); `initialize`, a session id, a response or a batch together with a modern signal is
 *   -32600 (invalid request: the message mixes eras).
 *
 * A header that is not shaped like a revision is no signal: the later checks of either era reject it.
 */
export function classifyRequestEra(body: unknown, headers: HeaderSource): EraVerdict {
  const headerVersion = headers.get(MCP_HEADER.protocolVersion) ?? undefined;
  const headerEra = eraOf(headerVersion);
  const sessionId = headers.get(MCP_HEADER.sessionId);
  const message = isObject(body) ? body : undefined;
  const id = message !== undefined && (typeof message.id === 'string' || (typeof message.id === 'number' && Number.isInteger(message.id))) ? message.id : null;
  const envelope = message !== undefined && hasRequestEnvelope(message.params);
  const envelopeVersion = envelope ? envelopeProtocolVersion(message?.params) : undefined;

  const modern: string[] = [];
  if (envelope) modern.push('the params carry the 2026-07-28 _meta envelope');
  if (headerEra === 'modern') modern.push(`MCP-Protocol-Version is ${String(headerVersion)}`);

  const legacy: string[] = [];
  if (Array.isArray(body)) legacy.push('the body is a batch');
  // initialize with the envelope is a 2026-07-28 client's request for a method that revision removed (-32601, 404).
  if (message?.method === 'initialize' && !envelope) legacy.push('the method is initialize');
  if (message !== undefined && message.method === undefined && ('result' in message || 'error' in message)) legacy.push('the body is a JSON-RPC response');
  if (sessionId !== null && sessionId !== undefined) legacy.push('it carries Mcp-Session-Id');
  if (headerEra === 'legacy') legacy.push(`MCP-Protocol-Version is ${String(headerVersion)}`);

  if (modern.length === 0) return { era: 'legacy', reason: legacy[0] ?? 'no 2026-07-28 signal' };

  if (envelope && headerVersion !== undefined && envelopeVersion !== undefined && headerVersion !== envelopeVersion) {
    return {
      era: 'refused',
      reason: `MCP-Protocol-Version ${headerVersion} differs from the envelope's ${envelopeVersion}`,
      error: headerMismatchError(MCP_HEADER.protocolVersion, `MCP-Protocol-Version (${headerVersion}) must equal _meta io.modelcontextprotocol/protocolVersion (${envelopeVersion})`),
      id,
    };
  }
  const mixed = legacy.filter((signal) => !signal.startsWith('MCP-Protocol-Version'));
  if (mixed.length > 0) {
    const reason = `${mixed[0]}, but ${modern[0]}`;
    return { era: 'refused', reason, error: { code: RpcCode.InvalidRequest, message: `The request mixes protocol eras: ${reason}` }, id };
  }
  return { era: 'modern', reason: modern[0] ?? '' };
}
