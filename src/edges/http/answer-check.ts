/** @module Hands a host's answer to its session, which checks and settles it once; refuses what the verdict refuses: an id it never asked (400 -32600, audited), a bad answer (400 -32602, its question settled). */

import { describePrincipal } from '../../access/principal.js';
import type { Logger } from '../../core/log.js';
import type { HostSession } from '../../ports/host-contracts.js';
import type { JsonRpcResponse } from '../../protocol/jsonrpc.js';
import { identityOf } from './host-identity.js';
import { errorResponse } from './status.js';

/**
 * Hands `message` to the host session: the HTTP answer refusing it, or undefined when it was taken (its question is
 * settled either way). An answer to a question this session was never asked (another session's, or one already
 * settled) touches nothing and is logged with `audit: unknown-answer`.
 */
export function refusedAnswer(host: HostSession, message: JsonRpcResponse, req: Request, logger: Logger): Response | undefined {
  const check = host.receive(message);
  if (check.ok) return undefined;
  if (check.kind === 'unknown') {
    const principal = identityOf(req);
    logger.log('warn', 'a host answered a question its session was not asked', {
      audit: 'unknown-answer',
      hostSession: host.id,
      id: typeof message.id === 'string' || typeof message.id === 'number' ? message.id : String(message.id),
      ...(principal ? { principal: describePrincipal(principal) } : {}),
    });
    return errorResponse('UNKNOWN_RESPONSE_ID', `Invalid Request: ${check.reason}`, { id: message.id });
  }
  return errorResponse('INVALID_ANSWER', `Invalid params: ${check.reason}`, { id: message.id });
}
