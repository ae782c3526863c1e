/**
 * @module The cluster link at the HTTP edge (design 013): a host's request for a session or parked call another
 * instance owns is forwarded there, signed, and its response (JSON or a live SSE stream) streamed back; a request
 * another instance forwarded here is admitted once its signature verifies. An owner that is gone is the caller's to
 * answer (404 for a session, `gone` for a handle).
 */

import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

import { systemClock } from '../../core/clock.js';
import type { Logger } from '../../core/log.js';
import { CLIENT_ADDRESS_HEADER, CLUSTER_HEADER, ownedSessionId, signForward, verifyForward } from './cluster-link.js';
import { noteRemoteAddress, remoteAddressOf } from './modern-principal.js';
import { readBodyCapped } from './read-body.js';
import { errorResponse } from './status.js';

/** Where the instances are, as the shared store records them. */
export interface ClusterDirectory {
  /** This instance's id. */
  readonly self: string;
  /** Instance `id`: `up` with the base URL it is reached at (if it advertised one), or `down` (left, dead, unknown). */
  place(id: string): Promise<{ up: true; url?: string } | { up: false }>;
  /** Whether instance `id` is surely gone now (no live process holds its id), asked after a forward to it failed. */
  isGone(id: string): Promise<boolean>;
  /** Another instance recorded up with an address, picked at random, to hand new work to while this one drains. */
  peer(): Promise<string | undefined>;
}

export interface ClusterLinkSettings {
  directory: ClusterDirectory;
  /** `cluster.secret`. */
  secret: string;
  logger: Logger;
  /** `http.maxBodyBytes`: no forwarded body is larger. */
  maxBodyBytes: number;
  /** How long a connection to another instance may take to open (default 3 s). */
  connectTimeoutMs?: number;
  now?: () => number;
}

/** Headers that belong to one hop, or to the link itself: never copied from a host's request or an owner's response. */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host', 'content-length', CLUSTER_HEADER, CLIENT_ADDRESS_HEADER]);

/** Requests admitted from another instance: served here whatever they name, never forwarded again. */
const forwardedRequests = new WeakSet<Request>();

/** Whether `req` came from another instance over the cluster link (its signature verified). */
export function isForwarded(req: Request): boolean {
  return forwardedRequests.has(req);
}

export class ClusterLink {
  readonly self: string;
  #settings: ClusterLinkSettings;
  #agents = { http: new HttpAgent({ keepAlive: true, maxSockets: 1024 }), https: new HttpsAgent({ keepAlive: true, maxSockets: 1024 }) };
  /** Forwards whose exchange has not ended yet (a draining instance waits for them as for its own calls). */
  #inFlight = 0;

  constructor(settings: ClusterLinkSettings) {
    this.self = settings.directory.self;
    this.#settings = settings;
  }

  /** A new session id naming this instance. */
  newSessionId(): string {
    return ownedSessionId(this.self);
  }

  /** Forwarded requests (GET streams aside) whose exchange with the other instance has not ended (their responses may still stream). */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Another live instance to hand a new session or a new 2026-07-28 request to while this one drains; undefined: none. */
  async peer(req: Request): Promise<string | undefined> {
    if (forwardedRequests.has(req)) return undefined;
    return this.#settings.directory.peer().catch(() => undefined);
  }

  /** `owner` when it is another instance and `req` is a host's own request (a forwarded one is never forwarded again). */
  elsewhere(req: Request, owner: string | undefined): string | undefined {
    return owner !== undefined && owner !== this.self && !forwardedRequests.has(req) ? owner : undefined;
  }

  /**
   * Forwards `req` to instance `owner` and resolves its response, streamed; `body` is the request's body when the
   * caller already read it. Undefined when the owner is gone (the caller answers as for a session or handle that no
   * longer exists); 503 with Retry-After when it is up but cannot be reached now.
   */
  async forward(req: Request, owner: string, body?: Uint8Array): Promise<Response | undefined> {
    let bytes = body;
    if (bytes === undefined && req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'DELETE') {
      const read = await readBodyCapped(req, this.#settings.maxBodyBytes);
      if (read.kind === 'too-large') return errorResponse('BODY_TOO_LARGE', `Payload Too Large: the body exceeds ${this.#settings.maxBodyBytes} bytes`);
      bytes = read.bytes;
    }
    const place = await this.#settings.directory.place(owner);
    if (!place.up) return undefined;
    if (place.url === undefined) return unreachable(`the gateway instance ${owner} holding this session did not advertise an address (cluster.advertise)`);
    try {
      return await this.#send(req, place.url, bytes ?? new Uint8Array(0));
    } catch (error) {
      if (req.signal.aborted) return errorResponse('UNAVAILABLE', 'the host went away');
      if (await this.#settings.directory.isGone(owner).catch(() => false)) return undefined;
      this.#settings.logger.log('warn', 'cannot reach the gateway instance that owns a request; the host is told to retry', { instance: owner, error: error instanceof Error ? error.message : String(error) });
      return unreachable(`the gateway instance ${owner} holding this session cannot be reached now`);
    }
  }

  /**
   * A request bearing the cluster header: once its signature verifies, the same request to be served here (marked
   * forwarded, with the host's address as the first instance saw it); otherwise 401, never served.
   */
  async admit(req: Request): Promise<{ ok: true; request: Request } | { ok: false; response: Response }> {
    const header = req.headers.get(CLUSTER_HEADER) ?? '';
    const read = req.method === 'GET' || req.method === 'HEAD' ? { kind: 'ok' as const, bytes: new Uint8Array(0) } : await readBodyCapped(req, this.#settings.maxBodyBytes);
    if (read.kind === 'too-large') return { ok: false, response: errorResponse('BODY_TOO_LARGE', `Payload Too Large: the body exceeds ${this.#settings.maxBodyBytes} bytes`) };
    const url = new URL(req.url);
    const clientAddress = req.headers.get(CLIENT_ADDRESS_HEADER) ?? '';
    const checked = verifyForward(this.#settings.secret, header, this.#now(), { method: req.method, target: url.pathname + url.search, body: read.bytes, clientAddress });
    if (!checked.ok) {
      this.#settings.logger.log('warn', 'refused a request with a bad cluster signature', { reason: checked.reason });
      return { ok: false, response: errorResponse('CLUSTER_UNAUTHORIZED', `Unauthorized: ${checked.reason}`) };
    }
    const headers = new Headers();
    req.headers.forEach((value, name) => {
      if (!HOP_HEADERS.has(name)) headers.set(name, value);
    });
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(req.url, { method: req.method, headers, signal: req.signal, ...(hasBody ? { body: new Uint8Array(read.bytes) } : {}) });
    forwardedRequests.add(request);
    if (clientAddress !== '') noteRemoteAddress(request, clientAddress);
    return { ok: true, request };
  }

  close(): void {
    this.#agents.http.destroy();
    this.#agents.https.destroy();
  }

  #send(req: Request, base: string, body: Uint8Array): Promise<Response> {
    const source = new URL(req.url);
    const target = source.pathname + source.search;
    const url = new URL(target, `${base}/`);
    const clientAddress = remoteAddressOf(req) ?? '';
    const headers: Record<string, string> = {};
    req.headers.forEach((value, name) => {
      if (!HOP_HEADERS.has(name)) headers[name] = value;
    });
    headers[CLUSTER_HEADER] = signForward(this.#settings.secret, this.self, this.#now(), { method: req.method, target, body, clientAddress });
    headers[CLIENT_ADDRESS_HEADER] = clientAddress;
    if (body.byteLength > 0 || req.method === 'POST') headers['content-length'] = String(body.byteLength);
    const secure = url.protocol === 'https:';
    const send = secure ? httpsRequest : httpRequest;
    return new Promise<Response>((resolve, reject) => {
      const outgoing = send(url, { method: req.method, headers, agent: secure ? this.#agents.https : this.#agents.http, signal: req.signal });
      // A GET is a stream that lasts as long as its session: only the other exchanges are waited for.
      if (req.method !== 'GET') {
        this.#inFlight += 1;
        // 'close' comes once: after the response ended (read whole, or cancelled by the host) or the request failed.
        outgoing.once('close', () => (this.#inFlight -= 1));
      }
      const connectTimer = setTimeout(() => outgoing.destroy(new Error(`no connection within ${this.#connectTimeoutMs()} ms`)), this.#connectTimeoutMs());
      outgoing.once('socket', (socket) => {
        if (!socket.connecting) clearTimeout(connectTimer);
        else socket.once('connect', () => clearTimeout(connectTimer));
      });
      outgoing.once('error', (error) => {
        clearTimeout(connectTimer);
        reject(error);
      });
      outgoing.once('response', (incoming) => {
        clearTimeout(connectTimer);
        resolve(toResponse(incoming));
      });
      outgoing.end(body);
    });
  }

  #connectTimeoutMs(): number {
    return this.#settings.connectTimeoutMs ?? 3000;
  }

  #now(): number {
    return (this.#settings.now ?? systemClock.now)();
  }
}

/** 503 with Retry-After: the owner is up but out of reach; the host tries again (and gets 404 once it is found dead). */
function unreachable(message: string): Response {
  return errorResponse('UNAVAILABLE', `Service Unavailable: ${message}; retry shortly`, { headers: { 'retry-after': '1' } });
}

/** The owner's response as the host gets it: status and headers (not the hop's), the body streamed as it arrives. */
function toResponse(incoming: IncomingMessage): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else headers.set(name, value);
  }
  const status = incoming.statusCode ?? 502;
  if (status === 204 || status === 304) {
    incoming.resume();
    return new Response(null, { status, headers });
  }
  return new Response(Readable.toWeb(incoming) as ReadableStream<Uint8Array>, { status, headers });
}
