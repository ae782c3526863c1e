/** @module Hands a host's answer to its session, which checks and settles it once; refuses what the verdict refuses: an id it never asked (400 -32600), a bad answer (400 -32602, its question settled). */

import type { HostSession } from '../../ports/host-contracts.js';
import type { JsonRpcResponse } from '../../protocol/jsonrpc.js';
import { errorResponse } from './status.js';

/** Hands `message` to the host session: the HTTP answer refusing it, or undefined when it was taken (its question is settled either way). */
export function refusedAnswer(host: HostSession, message: JsonRpcResponse): Response | undefined {
  const check = host.receive(message);
  if (check.ok) return undefined;
  return check.kind === 'unknown'
    ? errorResponse('UNKNOWN_RESPONSE_ID', `Invalid Request: ${check.reason}`, { id: message.id })
    : errorResponse('INVALID_ANSWER', `Invalid params: ${check.reason}`, { id: message.id });
}
