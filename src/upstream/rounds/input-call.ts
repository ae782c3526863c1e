/**
 * @module A legacy host's call carried through a 2026-07-28 upstream's `input_required` rounds (pair 3 of
 * the era bridge): the retry loop wired to the upstream session and to the path every question takes, and a
 * loop that cannot finish turned into the host's answer (an isError result for tools/call, an error otherwise).
 */

import type { JsonObject, JsonRpcRequest } from '../../protocol/jsonrpc.js';
import { GatewayError } from '../../protocol/gateway-errors.js';
import { runInputLoop } from './input-loop.js';
import { askRound } from './input-round.js';
import type { Logger } from '../../core/log.js';
import type { CallOptions, UpstreamSession } from '../session.js';

export interface InputCall {
  /** The host's request (its method is the upstream's). */
  request: JsonRpcRequest;
  session: UpstreamSession;
  /** The params of the first request as the upstream got them. */
  params: JsonObject;
  /** The upstream's `input_required` answer to it. */
  first: JsonObject;
  /** Milliseconds the first request took. */
  spentMs: number;
  /** The options of each request to the upstream (progress, the call's upstream id, envelope), with the time a retry may take. */
  options: (timeoutMs?: number) => CallOptions;
  /** Aborted when the host cancels the call. */
  signal: AbortSignal;
  /** Puts one question the way every upstream question goes (the host session's deliverQuestion, routed to this call). */
  deliver: (question: JsonRpcRequest) => void;
  logger: Logger;
  hostSessionId: string;
}

/** The complete result of the call, or the host's answer to a loop that could not finish; throws what the upstream or a cancellation throws. */
export async function carryInputRequired(call: InputCall): Promise<JsonObject> {
  const { request, session, signal } = call;
  const outcome = await runInputLoop(
    { method: request.method, params: call.params, first: call.first, spentMs: call.spentMs, limits: session.spec.inputRequired },
    {
      signal,
      now: () => performance.now(),
      retry: (next, timeoutMs) => session.request(request.method, next, call.options(timeoutMs)),
      ask: (requests) => {
        const round = askRound(requests, { session, deliver: call.deliver });
        signal.addEventListener('abort', round.abandon, { once: true });
        return round.outcome.finally(() => signal.removeEventListener('abort', round.abandon));
      },
    },
  );
  if (outcome.ok) return outcome.result;
  const reason = `upstream '${session.spec.name}' ${outcome.reason}`;
  call.logger.log('warn', `${request.method} could not be completed: ${reason}`, { session: call.hostSessionId });
  if (request.method === 'tools/call') return { content: [{ type: 'text', text: `The call could not be completed: ${reason}` }], isError: true };
  throw new GatewayError('GW_ERR_INPUT_REQUIRED_FAILED', `The request could not be completed: ${reason}`);
}
