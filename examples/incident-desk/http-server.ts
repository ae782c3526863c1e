/** @module incident-desk/http-server: binds the session router to a node:http server. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { localhostAllowedHostnames } from '@modelcontextprotocol/server';

import type { HttpAddress } from './args.js';
import { createSessionRouter, MCP_PATH } from './http-sessions.js';
import { nodeListener } from './node-adapter.js';
import type { IncidentDeskOptions } from './options.js';
import { createIncidentDeskServer } from './server.js';

export interface RunningHttpServer {
  /** The endpoint, e.g. `http://127.0.0.1:41234/mcp` (the real port when 0 was asked). */
  readonly url: string;
  close(): Promise<void>;
}

function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

export async function startHttpServer(address: HttpAddress, options: IncidentDeskOptions = {}): Promise<RunningHttpServer> {
  const allowed = [...new Set([...localhostAllowedHostnames(), hostForUrl(address.host)])];
  const router = createSessionRouter(() => createIncidentDeskServer(options), allowed);
  const server = createServer(nodeListener((request) => router.handle(request)));
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
      await router.closeAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
