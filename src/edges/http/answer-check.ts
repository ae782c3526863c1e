/** @module Hands a host's answer to its session, which checks and settles it once; refuses what it will not take: an id it never asked (400 -32600), a bad answer (400 -32602, its question settled). */

import type { HostSession } from '../../ports/host-contracts.js';
import type { JsonRpcResponse } from '../../protocol/jsonrpc.js';
import { errorResponse } from './status.js';

/** The HTTP answer refusing `message`, or undefined when the host session took it (`admitAnswer` settled its question either way). */
export function refusedAnswer(host: HostSession, message: JsonRpcResponse): Response | undefined {
  const check = host.admitAnswer(message);
  if (check.ok) return undefined;
  return check.kind === 'unknown'
    ? errorResponse('UNKNOWN_RESPONSE_ID', `Invalid Request: ${check.reason}`, { id: message.id })
    : errorResponse('INVALID_ANSWER', `Invalid params: ${check.reason}`, { id: message.id });
}
