/**
 * @module The 2026-07-28 side of `/mcp`: one POST is one request, checked (headers, envelope, version),
 * handed to the gateway, and answered with JSON, or with an SSE stream scoped to it whose closing cancels it.
 */

import type { GatewayHandle, ModernExchange, ModernSink } from '../../ports/host-contracts.js';
import type { Logger } from '../../core/log.js';
import { RpcCode } from '../../protocol/errors.js';
import type { JsonRpcId, JsonRpcMessage, JsonRpcResponse } from '../../protocol/jsonrpc.js';
import { classifyMessage, errorResponse, isObject } from '../../protocol/jsonrpc.js';
import { checkModernRequest } from '../../protocol/modern-request-check.js';
import { modernHttpStatus } from '../../protocol/modern-errors.js';
import type { JsonRpcErrorObject } from '../../protocol/jsonrpc.js';
import { SESSION_RETRY_AFTER_SECONDS } from '../../ports/session-limits.js';
import { identityOf } from './host-identity.js';
import { principalOf, sessionCapKey } from './modern-principal.js';
import { SseConnection } from './sse-connection.js';
import { sseJsonEvent } from './sse-frame.js';

/**
 * A JSON-RPC response as a modern server sends it: the status follows the error code (400 for -32020…-32022 and bad
 * params, 404 for an unknown method); a refusal at the host-session caps is 503 with Retry-After, its body unchanged.
 */
export function modernJsonResponse(message: JsonRpcResponse): Response {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  let status = 'error' in message ? modernHttpStatus(message.error.code) : 200;
  if ('error' in message && isSessionLimit(message.error)) {
    status = 503;
    headers['retry-after'] = String(SESSION_RETRY_AFTER_SECONDS);
  }
  return new Response(JSON.stringify(message), { status, headers });
}

function isSessionLimit(error: JsonRpcErrorObject): boolean {
  return isObject(error.data) && error.data.reason === 'GW_ERR_HOST_LIMIT';
}

export function modernErrorResponse(id: JsonRpcId | null, error: JsonRpcErrorObject): Response {
  return modernJsonResponse(errorResponse(id, error));
}

/**
 * Serves one POST classified as 2026-07-28. A notification is accepted and ignored (the revision defines
 * none from client to server over HTTP). The answer is JSON when the gateway answers before it has
 * anything else to say; once a notification comes first (progress, a log line, a listen stream's
 * acknowledgement), it is an SSE stream that ends with the response.
 */
export function serveModernPost(gateway: GatewayHandle, req: Request, body: unknown, logger: Logger): Response | Promise<Response> {
  const classified = classifyMessage(body);
  if (classified.kind === 'invalid') return modernErrorResponse(classified.id, { code: RpcCode.InvalidRequest, message: `Invalid Request: ${classified.reason}` });
  if (classified.kind === 'response') return modernErrorResponse(null, { code: RpcCode.InvalidRequest, message: 'Invalid Request: a 2026-07-28 client never posts responses' });
  if (classified.kind === 'notification') {
    logger.log('debug', `ignoring a 2026-07-28 notification over HTTP: ${classified.message.method}`);
    return new Response(null, { status: 202 });
  }
  const request = classified.message;
  const checked = checkModernRequest(request, req.headers);
  if (!checked.ok) return modernErrorResponse(request.id, checked.error);
  const identity = identityOf(req);
  const context = {
    principal: principalOf(req, checked.envelope),
    ...(identity ? { identity } : {}),
    sessionCapKey: sessionCapKey(req),
    envelope: checked.envelope,
    transport: 'streamable-http' as const,
    headers: req.headers,
  };

  return new Promise<Response>((resolve) => {
    let stream: SseConnection | undefined;
    let answered = false;
    /** Set when the host left before serveModern returned. */
    let cancelled: string | undefined;
    const holder: { exchange?: ModernExchange } = {};
    const cancel = (reason: string): void => {
      if (answered) return;
      answered = true;
      cancelled = reason;
      holder.exchange?.cancel(reason);
    };
    const write = (message: JsonRpcMessage): void => stream?.write(sseJsonEvent(message));
    const sink: ModernSink = {
      notify(message) {
        if (answered) return;
        if (!stream) {
          stream = new SseConnection(() => cancel('the host closed the request stream'));
          resolve(new Response(stream.body, { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } }));
        }
        write(message);
      },
      respond(message) {
        if (answered) return;
        answered = true;
        if (stream) {
          write(message);
          stream.end();
        } else {
          resolve(modernJsonResponse(message));
        }
      },
    };
    // Before a stream exists, the host going away shows as the request's abort signal.
    req.signal.addEventListener('abort', () => {
      if (!stream) cancel('the host closed the request');
    }, { once: true });
    holder.exchange = gateway.serveModern(request, context, sink);
    if (cancelled !== undefined) holder.exchange.cancel(cancelled);
  });
}
