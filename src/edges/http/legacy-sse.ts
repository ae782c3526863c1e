/**
 * @module The legacy HTTP+SSE host transport (2024-11-05): `GET /sse` opens one event stream whose first
 * event names the POST endpoint (`/messages?sessionId=…`); every host message is a POST there (202), and
 * everything the gateway sends, responses included, goes out as `message` events on that one stream.
 * Sessions are counted under the host-session caps and closed after the idle timeout without traffic.
 */

import { randomUUID } from 'node:crypto';

import type { GatewayHandle, HostSession } from '../../ports/host-contracts.js';
import type { Logger } from '../../core/log.js';
import type { SessionLimits, SessionSlot } from '../../ports/session-limits.js';
import type { JsonRpcId, JsonRpcMessage } from '../../protocol/jsonrpc.js';
import { classifyMessage } from '../../protocol/jsonrpc.js';
import { refusedAnswer } from './answer-check.js';
import type { JsonBodyLimits } from './read-json.js';
import { jsonBodyErrorResponse, readJsonBody } from './read-json.js';
import { acceptsEventStream, isJsonContentType } from './request-guards.js';
import type { IdentityRefusal } from './host-identity.js';
import { identityOf, SessionOwner } from './host-identity.js';
import { IdleClock } from './idle-clock.js';
import { sessionCapKey } from './modern-principal.js';
import { SseConnection } from './sse-connection.js';
import { sseEvent, sseJsonEvent } from './sse-frame.js';
import { errorResponse, idInFlightResponse, sessionLimitResponse } from './status.js';

export const LEGACY_SSE_PATH = '/sse';
export const LEGACY_MESSAGES_PATH = '/messages';

interface LegacySession {
  connection: SseConnection;
  host: HostSession;
  slot: SessionSlot;
  /**
   * Idle once nothing went either way for the idle timeout and no host request awaits its response. The stream
   * being open does not count: it is the session itself, and a host that vanished without closing it holds it open.
   */
  idle: IdleClock;
  /** Ids of host requests still waiting for their response. */
  inFlight: Set<JsonRpcId>;
  /** Who opened it, when hosts authenticate: only they may post to it. */
  owner: SessionOwner;
}

export interface LegacySseSettings extends JsonBodyLimits {
  logger: Logger;
  /** `http.sessionIdleTimeout` in milliseconds; 0 = never. */
  idleTimeoutMs: number;
  /** The host-session count and caps every `/sse` session is admitted by. */
  limits: SessionLimits;
  /** Makes a session's id (default: a random UUID; on a cluster, one that names this instance). */
  newSessionId?: () => string;
  /** A request refused for who sent it (another principal's session): for the metrics. */
  refused?: (why: IdentityRefusal) => void;
}

export interface LegacySseEndpoint {
  /** `GET /sse`. */
  open(req: Request): Response;
  /** `POST /messages?sessionId=…`. */
  post(req: Request): Promise<Response>;
  close(): Promise<void>;
}

export function createLegacySseEndpoint(gateway: GatewayHandle, settings: LegacySseSettings): LegacySseEndpoint {
  const sessions = new Map<string, LegacySession>();

  function end(id: string, why: string, closeHost: boolean): void {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    session.slot.release();
    session.idle.stop();
    session.connection.end();
    settings.logger.log('info', 'legacy SSE host session closed', { session: id, reason: why });
    if (closeHost) void session.host.close();
  }

  return {
    open(req) {
      if (!acceptsEventStream(req.headers.get('accept'))) {
        return errorResponse('NOT_ACCEPTABLE', 'Not Acceptable: Accept must list text/event-stream');
      }
      const id = settings.newSessionId?.() ?? randomUUID();
      const inFlight = new Set<JsonRpcId>();
      const slot = settings.limits.admit({
        kind: 'sse',
        principal: sessionCapKey(req),
        isIdle: () => sessions.has(id) && inFlight.size === 0,
        evict: () => end(id, 'closed to make room for a new session', true),
      });
      if (!slot) return sessionLimitResponse();
      const idle = new IdleClock({ timeoutMs: settings.idleTimeoutMs, busy: () => inFlight.size > 0, onIdle: () => end(id, 'idle timeout', true), onUse: () => slot.touch() });
      const connection = new SseConnection(() => end(id, 'the host closed the stream', true));
      const write = (message: JsonRpcMessage) => {
        idle.touch();
        if (!('method' in message) && message.id !== null) inFlight.delete(message.id);
        connection.write(sseJsonEvent(message));
      };
      let host: HostSession;
      const principal = identityOf(req);
      try {
        host = gateway.openSession({
          send: (message) => write(message),
          onSessionClosed: () => end(id, 'closed by the gateway', false),
          transport: 'sse',
          ...(principal ? { principal } : {}),
        });
      } catch (error) {
        slot.release();
        throw error;
      }
      sessions.set(id, { connection, host, slot, idle, inFlight, owner: new SessionOwner(principal) });
      idle.touch();
      connection.write(sseEvent({ event: 'endpoint', data: `${LEGACY_MESSAGES_PATH}?sessionId=${encodeURIComponent(id)}` }));
      settings.logger.log('info', 'legacy SSE host session opened', { session: id, hostSession: host.id });
      return new Response(connection.body, {
        status: 200,
        headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' },
      });
    },

    async post(req) {
      const id = new URL(req.url).searchParams.get('sessionId');
      if (!id) return errorResponse('SESSION_ID_REQUIRED', 'Bad Request: the sessionId query parameter is required');
      const session = sessions.get(id);
      if (!session || !session.owner.admits(req, id, settings.logger, settings.refused)) return errorResponse('SESSION_NOT_FOUND', 'Session not found');
      if (!isJsonContentType(req.headers.get('content-type'))) {
        return errorResponse('UNSUPPORTED_MEDIA_TYPE', 'Unsupported Media Type: Content-Type must be application/json');
      }
      const body = await readJsonBody(req, settings);
      if (body.kind !== 'ok') return jsonBodyErrorResponse(body, settings);
      const { value } = body;
      const classified = classifyMessage(value);
      if (classified.kind === 'invalid') return errorResponse('INVALID_MESSAGE', `Invalid Request: ${classified.reason}`, { id: classified.id });
      if (classified.kind === 'request' && session.inFlight.has(classified.message.id)) return idInFlightResponse(classified.message.id);
      if (classified.kind === 'response') {
        const refused = refusedAnswer(session.host, classified.message, req, settings.logger);
        if (refused) return refused;
      }
      session.idle.touch();
      if (classified.kind === 'request') session.inFlight.add(classified.message.id);
      if (classified.kind !== 'response') session.host.receive(classified.message);
      return new Response('Accepted', { status: 202, headers: { 'content-type': 'text/plain' } });
    },

    async close() {
      for (const id of [...sessions.keys()]) end(id, 'the HTTP edge is shutting down', true);
    },
  };
}
