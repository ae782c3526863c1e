/** @module Thin node:http adapter: serves a web-standard handler through @hono/node-server, streaming SSE bodies as they are written. */

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createAdaptorServer } from '@hono/node-server';

import type { HttpSettings } from '../../config/types.js';
import { noteRemoteAddress } from './modern-principal.js';

export interface FetchHandler {
  handle(req: Request): Promise<Response>;
}

export interface RunningHttpServer {
  /** Base URL with the real bound port, e.g. `http://127.0.0.1:41234` (no trailing slash, no path). */
  url: string;
  host: string;
  port: number;
  /** Stops accepting, drops open connections (SSE streams included) and resolves once closed. */
  close(): Promise<void>;
}

/** Formats a host for a URL: IPv6 literals get brackets. */
export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * Marks an SSE response as chunked. Without the header, @hono/node-server first tries to learn the body's
 * length: when the stream has begun but not ended it waits a timer tick (about 1 ms) before sending the
 * headers, which added a millisecond to every relayed call.
 */
export function streamAtOnce(response: Response): Response {
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
  try {
    // The handler's own responses have mutable headers: marking them in place saves a copy per SSE response.
    response.headers.set('transfer-encoding', 'chunked');
    return response;
  } catch {
    // Immutable headers (a Response that came from fetch): copy.
  }
  const headers = new Headers(response.headers);
  headers.set('transfer-encoding', 'chunked');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** What the node server enforces on every connection (`http.headersTimeout`, `http.requestTimeout`, `http.maxConnections`). */
export type ConnectionLimits = Pick<HttpSettings, 'headersTimeoutMs' | 'requestTimeoutMs' | 'maxConnections'>;

/**
 * Node's options for the limits. Node checks the two timeouts on a timer (30 s by default, longer than the
 * default header timeout itself): it runs four times per shortest timeout here. Node refuses a header timeout
 * longer than the request timeout, and the whole request includes the headers: the shorter one governs both.
 * Both count only while a request is being received: a response streamed afterwards (SSE) is not affected.
 */
export function nodeServerOptions(limits: ConnectionLimits): { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number } {
  const headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    headersTimeout,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: Math.min(30_000, Math.max(50, Math.floor(headersTimeout / 4))),
  };
}

/**
 * Listens on `host:port` (port 0 picks a free one) and resolves once bound. With `limits`, slow clients are cut off
 * and connections beyond the cap are dropped as they arrive; without, Node's defaults apply (tests only).
 */
export async function startHttpServer(handler: FetchHandler, { host, port }: { host: string; port: number }, limits?: ConnectionLimits): Promise<RunningHttpServer> {
  // overrideGlobalObjects: false keeps the global Request/Response untouched for the rest of the process.
  const server = createAdaptorServer({
    ...(limits ? { serverOptions: nodeServerOptions(limits) } : {}),
    fetch: async (req: Request, env?: { incoming?: { socket?: { remoteAddress?: string } } }) => {
      noteRemoteAddress(req, env?.incoming?.socket?.remoteAddress);
      return streamAtOnce(await handler.handle(req));
    },
    overrideGlobalObjects: false,
  }) as Server;
  if (limits) server.maxConnections = limits.maxConnections;
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${urlHost(host)}:${bound}`,
    host,
    port: bound,
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
