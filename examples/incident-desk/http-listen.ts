/** @module incident-desk/http-listen: binds a `(Request) => Promise<Response>` handler to HOST:PORT behind the Host/Origin and `/mcp` checks. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { hostHeaderValidationResponse, localhostAllowedHostnames, originValidationResponse } from '@modelcontextprotocol/server';

import type { HttpAddress } from './args.js';
import { type FetchHandler, nodeListener } from './node-adapter.js';

export const MCP_PATH = '/mcp';

export interface RunningHttpServer {
  /** The endpoint, e.g. `http://127.0.0.1:41234/mcp` (the real port when 0 was asked). */
  readonly url: string;
  close(): Promise<void>;
}

function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** The hostnames a request may name in Host/Origin: loopback, and the address listened on. */
export function allowedHostnames(address: HttpAddress): string[] {
  return [...new Set([...localhostAllowedHostnames(), hostForUrl(address.host)])];
}

/**
 * Serves `handle` for requests to `/mcp` whose Host and Origin are allowed (DNS-rebinding guard); anything
 * else is answered here. `closeHandler` runs first on close, then open connections are dropped.
 */
export async function listenMcp(address: HttpAddress, handle: FetchHandler, closeHandler: () => Promise<void>): Promise<RunningHttpServer> {
  const allowed = allowedHostnames(address);
  const server = createServer(
    nodeListener(async (request) => {
      const rejected = hostHeaderValidationResponse(request, allowed) ?? originValidationResponse(request, allowed);
      if (rejected) return rejected;
      if (new URL(request.url).pathname !== MCP_PATH) return new Response('not found\n', { status: 404 });
      return handle(request);
    }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${hostForUrl(address.host)}:${port}${MCP_PATH}`,
    async close() {
      await closeHandler();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
