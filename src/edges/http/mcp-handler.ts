/** @module The Streamable HTTP downstream edge (2025-era, sessionful) as a web-standard Request → Response handler, routed by one small Hono app. */

import { isInitializeRequest } from '@modelcontextprotocol/server';
import { Hono } from 'hono';

import type { HttpSettings } from '../../config/types.js';
import type { GatewayHandle } from '../../ports/host-contracts.js';
import type { Logger } from '../../core/log.js';
import { SessionLimits } from '../../ports/session-limits.js';
import { classifyMessage, isObject } from '../../protocol/jsonrpc.js';
import { hasRequestEnvelope } from '../../protocol/request-envelope.js';
import { classifyRequestEra } from '../../protocol/request-era.js';
import { eraOf } from '../../protocol/revisions.js';
import { modernErrorResponse, serveModernPost } from './modern-post.js';
import type { JsonRpcId, JsonRpcRequest } from '../../protocol/jsonrpc.js';
import { isLegacyRevision } from '../../protocol/revisions.js';
import { refusedAnswer } from './answer-check.js';
import { HttpSession } from './http-session.js';
import type { InboundMessage } from './session-transport.js';
import { createLegacySseEndpoint, LEGACY_MESSAGES_PATH, LEGACY_SSE_PATH } from './legacy-sse.js';
import { jsonBodyErrorResponse, readJsonBody } from './read-json.js';
import { acceptsEventStream, acceptsPostResponses, hostGuard, isAllowedOrigin, isJsonContentType } from './request-guards.js';
import type { Principal } from '../../access/principal.js';
import type { HostAuth, IdentityRefusal } from './host-identity.js';
import { admitHost, identityOf } from './host-identity.js';
import { RESOURCE_METADATA_PATHS, resourceMetadataResponse } from './resource-metadata-route.js';
import { sessionCapKey } from './modern-principal.js';
import { pathOf } from './request-path.js';
import { CLUSTER_HEADER } from './cluster-link.js';
import { ClusterRouting } from './cluster-routing.js';
import type { ClusterLink } from './cluster-forward.js';
import { isForwarded } from './cluster-forward.js';
import { errorResponse, idInFlightResponse, sessionLimitResponse } from './status.js';

export const MCP_PATH = '/mcp';
export const HEALTH_PATH = '/healthz';
/** The paths this edge serves itself; the rest belong to `extraRoutes`. */
const MCP_PATHS: ReadonlySet<string> = new Set([MCP_PATH, HEALTH_PATH, LEGACY_SSE_PATH, LEGACY_MESSAGES_PATH]);
/** The paths where hosts authenticate (`auth.hosts`). */
const HOST_PATHS: ReadonlySet<string> = new Set([MCP_PATH, LEGACY_SSE_PATH, LEGACY_MESSAGES_PATH]);
/** The paths that answer 503 once the edge is closing (`/healthz` still answers). */
const CLOSED_WHEN_CLOSING: ReadonlySet<string> = new Set([MCP_PATH, LEGACY_SSE_PATH, LEGACY_MESSAGES_PATH]);
const methodNotAllowed = (allow: string): Response => errorResponse('METHOD_NOT_ALLOWED', 'Method Not Allowed', { headers: { allow } });
/** The one revision that has JSON-RPC batches. */
const BATCH_REVISION = '2025-03-26';

/** More routes served behind the same Host/Origin checks (the operator console and API, /metrics). */
export interface ExtraRoutes {
  /** The response for one of its paths, or undefined when the path is not its. */
  handle(req: Request): Promise<Response | undefined> | Response | undefined;
}

export type McpHttpHandlerSettings = HttpSettings & {
  logger: Logger;
  extraRoutes?: ExtraRoutes[];
  /** Whether the request carries an operator credential: only then does `/healthz` show each upstream (else only `ready`). */
  isOperator?: (req: Request) => boolean | Promise<boolean>;
  /** What `/healthz` adds for an operator besides the upstreams (the store, the gateway instances sharing it). */
  healthDetails?: () => Promise<Record<string, unknown>>;
  /** The cluster link (design 013): a request for another instance's session or parked call is forwarded there. */
  cluster?: ClusterLink;
  /** How hosts authenticate (`auth.hosts`): every request to /mcp, /sse and /messages is checked first. Absent: nobody does. */
  hostAuth?: HostAuth;
  /** A host request refused for who sent it (metrics). */
  refused?: (why: IdentityRefusal) => void;
};

export interface McpHttpHandler {
  handle(req: Request): Promise<Response>;
  /**
   * Stops taking new host sessions while the open ones go on; `/healthz` says `draining` with 503. On a cluster, a legacy
   * `initialize` and a new 2026-07-28 request are handed to another live instance over the cluster link; otherwise (and
   * a new `/sse` stream always) they get 503 with Retry-After, for a balancer to send elsewhere. Retries of parked calls
   * held here are still served.
   */
  drain(): void;
  /** Closes every session (transport and host session); later requests get 503. */
  close(): Promise<void>;
}

type Checked<T> = { ok: true; value: T } | { ok: false; response: Response };

/** A new host session refused while draining: 503 with Retry-After, so that a balancer sends the host to another instance. */
function drainingResponse(id: JsonRpcId | null): Response {
  return errorResponse('UNAVAILABLE', 'Service Unavailable: this gateway instance is draining (shutting down); connect again', { id, headers: { 'retry-after': '1' } });
}

export function createMcpHttpHandler(gateway: GatewayHandle, settings: McpHttpHandlerSettings): McpHttpHandler {
  const { logger, cluster } = settings;
  const sessions = new Map<string, HttpSession>();
  const limits = gateway.sessionLimits ?? new SessionLimits(settings);
  const legacy = createLegacySseEndpoint(gateway, {
    maxBodyBytes: settings.maxBodyBytes,
    maxJsonDepth: settings.maxJsonDepth,
    logger,
    idleTimeoutMs: settings.sessionIdleTimeoutMs,
    limits,
    ...(cluster ? { newSessionId: () => cluster.newSessionId() } : {}),
    ...(settings.refused ? { refused: settings.refused } : {}),
  });
  const routing = new ClusterRouting(cluster);
  let closing = false;
  /** Set by drain(): no new host sessions. */
  let draining = false;
  const isAllowedHost = hostGuard(settings.allowedHosts);

  /** A new session of `principal`, once the session caps have room for it; undefined when they have none. */
  function openSession(principal: string, identity: Principal | undefined): HttpSession | undefined {
    const holder: { session?: HttpSession } = {};
    const slot = limits.admit({
      kind: 'streamable-http',
      principal,
      isIdle: () => holder.session !== undefined && !holder.session.busy,
      evict: () => void holder.session?.close('closed to make room for a new session', { closeHost: true }),
    });
    if (!slot) return undefined;
    try {
      holder.session = new HttpSession({
        gateway,
        logger,
        idleTimeoutMs: settings.sessionIdleTimeoutMs,
        onUsed: () => slot.touch(),
        ...(cluster ? { newId: () => cluster.newSessionId() } : {}),
        ...(identity ? { principal: identity } : {}),
        onInitialized: (session) => {
          if (session.id !== undefined) sessions.set(session.id, session);
          logger.log('info', 'host session opened', { session: session.id, hostSession: session.host.id });
        },
        onClosed: (session) => {
          slot.release();
          if (session.id !== undefined && sessions.get(session.id) === session) sessions.delete(session.id);
        },
      });
    } catch (error) {
      slot.release();
      throw error;
    }
    return holder.session;
  }

  function guardHostAndOrigin(req: Request, anyOrigin = false): Response | undefined {
    const host = req.headers.get('host') ?? new URL(req.url).host;
    if (!isAllowedHost(host)) {
      return errorResponse('FORBIDDEN_HOST', `Forbidden: Host ${JSON.stringify(host)} is not allowed`);
    }
    const origin = req.headers.get('origin');
    if (origin !== null && !anyOrigin && !isAllowedOrigin(origin, settings.allowedOrigins)) {
      return errorResponse('FORBIDDEN_ORIGIN', `Forbidden: Origin ${JSON.stringify(origin)} is not allowed`);
    }
    return undefined;
  }

  /**
   * Finds the session named by `Mcp-Session-Id` and checks that `MCP-Protocol-Version`, if sent, is a known revision.
   * `handOff`: while draining on a cluster, an idle session is closed instead (404); a host's answer and a DELETE never hand off.
   */
  function sessionFor(req: Request, id: JsonRpcId | null = null, handOff = true): Checked<HttpSession> {
    const sessionId = req.headers.get('mcp-session-id');
    if (sessionId === null || sessionId === '') {
      return { ok: false, response: errorResponse('SESSION_ID_REQUIRED', 'Bad Request: Mcp-Session-Id header is required', { id }) };
    }
    const session = sessions.get(sessionId);
    if (session === undefined || session.closed || !session.owner.admits(req, sessionId, logger, settings.refused)) {
      return { ok: false, response: errorResponse('SESSION_NOT_FOUND', 'Session not found', { id }) };
    }
    // Draining on a cluster, a session is handed off once it has no request in flight: closed, so that the host's next
    // request gets 404 and it initializes again, on another instance. No new call starts here, nothing answered is cut off.
    if (draining && cluster && handOff && !session.transport.answering) {
      void session.close('the gateway instance is draining', { closeHost: true });
      return { ok: false, response: errorResponse('SESSION_NOT_FOUND', 'Session not found (this gateway instance is draining: initialize again)', { id }) };
    }
    const version = req.headers.get('mcp-protocol-version');
    if (version !== null) {
      if (!isLegacyRevision(version)) {
        return { ok: false, response: errorResponse('UNSUPPORTED_PROTOCOL_VERSION', `Bad Request: Unsupported protocol version: ${version}`, { id }) };
      }
      // A known revision other than the negotiated one is accepted: the session's revision still governs
      // how its messages are read, and the official conformance suite sends 2025-03-26 on a 2025-11-25 session.
    }
    session.touch();
    return { ok: true, value: session };
  }

  async function readJson(req: Request): Promise<Checked<{ value: unknown; bytes: Uint8Array }>> {
    const body = await readJsonBody(req, settings);
    return body.kind === 'ok' ? { ok: true, value: body } : { ok: false, response: jsonBodyErrorResponse(body, settings) };
  }

  async function handlePost(req: Request): Promise<Response> {
    const owner = routing.sessionOwner(req, req.headers.get('mcp-session-id'));
    if (owner !== undefined) return routing.forwardSession(req, owner);
    if (!acceptsPostResponses(req.headers.get('accept'))) {
      return errorResponse('NOT_ACCEPTABLE', 'Not Acceptable: Accept must list both application/json and text/event-stream');
    }
    if (!isJsonContentType(req.headers.get('content-type'))) {
      return errorResponse('UNSUPPORTED_MEDIA_TYPE', 'Unsupported Media Type: Content-Type must be application/json');
    }
    const read = await readJson(req);
    if (!read.ok) return read.response;
    const body = read.value;
    const era = classifyRequestEra(body.value, req.headers);
    // A session's request with a version header of a later era is the session's to refuse (unsupported version).
    const sessionOnly = req.headers.has('mcp-session-id') && !(isObject(body.value) && hasRequestEnvelope(body.value.params));
    if (era.era === 'refused' && !sessionOnly) return modernErrorResponse(era.id, era.error);
    if (era.era === 'modern') return routing.modern(req, body, draining, () => serveModernPost(gateway, req, body.value, logger));
    if (Array.isArray(body.value)) return handleBatch(req, body.value);
    const classified = classifyMessage(body.value);
    if (classified.kind === 'invalid') {
      return errorResponse('INVALID_MESSAGE', `Invalid Request: ${classified.reason}`, { id: classified.id });
    }
    const id = classified.kind === 'notification' ? null : classified.message.id;
    if (classified.kind === 'request' && classified.message.method === 'initialize') {
      if (draining) return routing.handOff(req, body.bytes, () => drainingResponse(id));
      if (req.headers.has('mcp-session-id')) {
        return errorResponse('ALREADY_INITIALIZED', 'Bad Request: initialize must not carry an Mcp-Session-Id', { id });
      }
      if (!isInitializeRequest(body.value)) {
        const message = 'Invalid params: initialize needs params.protocolVersion, params.capabilities and params.clientInfo {name, version}';
        return errorResponse('INVALID_INITIALIZE_PARAMS', message, { id });
      }
      return initialize(req, classified.message);
    }
    const found = sessionFor(req, id, classified.kind !== 'response');
    if (!found.ok) return found.response;
    if (classified.kind === 'response') {
      const refused = refusedAnswer(found.value.host, classified.message, req, logger);
      if (refused) return refused;
    }
    if (classified.kind === 'request' && found.value.transport.isInFlight(classified.message.id)) return idInFlightResponse(classified.message.id);
    return found.value.post(classified, req.headers.get('mcp-protocol-version'));
  }

  /** JSON-RPC batches exist only in 2025-03-26: checked whole, then handed over whole, or refused whole. */
  function handleBatch(req: Request, items: unknown[]): Response {
    const found = sessionFor(req);
    if (!found.ok) return found.response;
    if (found.value.host.protocolVersion !== BATCH_REVISION) {
      return errorResponse('BATCH_NOT_SUPPORTED', `Invalid Request: batches exist only in revision ${BATCH_REVISION}, not in ${found.value.host.protocolVersion ?? 'this session'}`);
    }
    if (items.length === 0) return errorResponse('INVALID_MESSAGE', 'Invalid Request: an empty batch');
    const inbounds: InboundMessage[] = [];
    for (const item of items) {
      const classified = classifyMessage(item);
      if (classified.kind === 'invalid') return errorResponse('INVALID_MESSAGE', `Invalid Request: batch item: ${classified.reason}`, { id: classified.id });
      if (classified.kind === 'request' && classified.message.method === 'initialize') {
        return errorResponse('INVALID_MESSAGE', 'Invalid Request: initialize must not be part of a batch', { id: classified.message.id });
      }
      if (classified.kind === 'response') {
        const refused = refusedAnswer(found.value.host, classified.message, req, logger);
        if (refused) return refused;
      }
      if (classified.kind === 'request') {
        const { id } = classified.message;
        if (found.value.transport.isInFlight(id) || inbounds.some((other) => other.kind === 'request' && other.message.id === id)) return idInFlightResponse(id);
      }
      inbounds.push(classified);
    }
    return found.value.postBatch(inbounds, req.headers.get('mcp-protocol-version'));
  }

  function initialize(req: Request, request: JsonRpcRequest): Response {
    let session: HttpSession | undefined;
    try {
      session = openSession(sessionCapKey(req), identityOf(req));
    } catch (error) {
      logger.log('warn', 'the gateway refused a host session', { error: error instanceof Error ? error.message : String(error) });
      return errorResponse('UNAVAILABLE', 'Service Unavailable: no new sessions', { id: request.id });
    }
    if (!session) return sessionLimitResponse(request.id);
    const response = session.initialize(request);
    session.touch();
    return response;
  }

  /** 2026-07-28 has no GET stream and no session to delete: a request without a session that speaks it gets 405. */
  function modernWithoutSession(req: Request): Response | undefined {
    if (req.headers.has('mcp-session-id') || eraOf(req.headers.get('mcp-protocol-version') ?? undefined) !== 'modern') return undefined;
    return errorResponse('METHOD_NOT_ALLOWED', 'Method Not Allowed: revision 2026-07-28 serves POST only', { headers: { allow: 'POST' } });
  }

  async function handleGet(req: Request): Promise<Response> {
    const modern = modernWithoutSession(req);
    if (modern) return modern;
    if (!acceptsEventStream(req.headers.get('accept'))) {
      return errorResponse('NOT_ACCEPTABLE', 'Not Acceptable: Accept must list text/event-stream');
    }
    const owner = routing.sessionOwner(req, req.headers.get('mcp-session-id'));
    if (owner !== undefined) return routing.forwardSession(req, owner);
    const found = sessionFor(req);
    return found.ok ? found.value.get(req.headers.get('last-event-id')) : found.response;
  }

  async function handleDelete(req: Request): Promise<Response> {
    const modern = modernWithoutSession(req);
    if (modern) return modern;
    const owner = routing.sessionOwner(req, req.headers.get('mcp-session-id'));
    if (owner !== undefined) return routing.forwardSession(req, owner);
    const found = sessionFor(req, null, false);
    return found.ok ? found.value.delete() : found.response;
  }

  async function handleHealth(req: Request): Promise<Response> {
    if (req.method !== 'GET') return methodNotAllowed('GET');
    const report = gateway.health();
    const detailed = (await settings.isOperator?.(req)) === true;
    const details = detailed && settings.healthDetails ? await settings.healthDetails().catch((error: unknown) => ({ detailsError: error instanceof Error ? error.message : String(error) })) : {};
    const ready = report.ready && !draining;
    const shown = detailed ? { ...report, ...details, ready } : { ready };
    return new Response(JSON.stringify(draining ? { ...shown, draining: true } : shown), {
      status: ready ? 200 : 503,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    });
  }

  /** The edge's paths as one Hono app, routed on the path as sent; every path it does not name goes to `extraRoutes`. */
  const app = new Hono({ getPath: pathOf });
  const hostAuth = settings.hostAuth;
  const metadataPaths: ReadonlySet<string> = new Set(hostAuth?.enabled === true ? RESOURCE_METADATA_PATHS : []);
  const extra = settings.extraRoutes ?? [];
  const notFound = (path: string) => errorResponse('NOT_FOUND', `Not Found: ${path}`);
  // Host and Origin are checked first, unless the path is nobody's (no extra routes, not an MCP path); then, once the
  // edge is closing, its own sessionful paths answer 503. One middleware for both: Hono composes it on every request.
  app.use('*', async (c, next) => {
    const path = c.req.path; // what getPath returned for this request: no second parse
    if (!MCP_PATHS.has(path) && !metadataPaths.has(path) && extra.length === 0) return notFound(path);
    // A forwarded request passed these checks on the instance the host reached. The metadata is public: any Origin may read it.
    const forbidden = isForwarded(c.req.raw) ? undefined : guardHostAndOrigin(c.req.raw, metadataPaths.has(path));
    if (forbidden !== undefined) return forbidden;
    if (closing && CLOSED_WHEN_CLOSING.has(path)) return errorResponse('UNAVAILABLE', 'Service Unavailable: shutting down');
    // Hosts authenticate before anything else is read, here or on the instance a request is forwarded to.
    if (HOST_PATHS.has(path)) {
      const refused = await admitHost(settings.hostAuth, c.req.raw, settings.refused);
      if (refused !== undefined) return refused;
    }
    await next();
    return undefined;
  });
  // Hono would answer HEAD with the GET route; c.req.method is the method sent, so HEAD is refused below like any other.
  app.all(HEALTH_PATH, (c) => handleHealth(c.req.raw));
  for (const path of metadataPaths) app.all(path, (c) => resourceMetadataResponse(c.req.method, hostAuth?.metadata()));
  app.all(LEGACY_SSE_PATH, (c) => (c.req.method !== 'GET' ? methodNotAllowed('GET') : draining ? drainingResponse(null) : legacy.open(c.req.raw)));
  app.all(LEGACY_MESSAGES_PATH, (c) => {
    if (c.req.method !== 'POST') return methodNotAllowed('POST');
    const owner = routing.sessionOwner(c.req.raw, new URL(c.req.url).searchParams.get('sessionId'));
    return owner === undefined ? legacy.post(c.req.raw) : routing.forwardSession(c.req.raw, owner);
  });
  app.all(MCP_PATH, (c) => {
    switch (c.req.method) {
      case 'POST':
        return handlePost(c.req.raw);
      case 'GET':
        return handleGet(c.req.raw);
      case 'DELETE':
        return handleDelete(c.req.raw);
      default:
        return methodNotAllowed('GET, POST, DELETE');
    }
  });
  app.all('*', async (c) => {
    for (const routes of extra) {
      const response = await routes.handle(c.req.raw);
      if (response !== undefined) return response;
    }
    return notFound(c.req.path);
  });
  const failed = (req: Request, error: unknown): Response => {
    logger.log('error', 'http request failed', { method: req.method, url: req.url, error: error instanceof Error ? error.stack : String(error) });
    return errorResponse('INTERNAL', 'Internal error');
  };
  app.onError((error, c) => failed(c.req.raw, error));

  return {
    async handle(incoming) {
      let req = incoming;
      try {
        if (cluster && req.headers.has(CLUSTER_HEADER)) {
          const admitted = await cluster.admit(req);
          if (!admitted.ok) return admitted.response;
          req = admitted.request;
        }
        return await app.fetch(req);
      } catch (error) {
        // Hono hands only Error instances to onError; anything else thrown ends here.
        return failed(req, error);
      }
    },
    drain() {
      if (draining) return;
      draining = true;
      logger.log('info', 'draining: no new host sessions; the open ones go on');
    },
    async close() {
      closing = true;
      const open = [...sessions.values()];
      await Promise.all(open.map((session) => session.close('the HTTP edge is shutting down', { closeHost: true })));
      await legacy.close();
    },
  };
}
