/**
 * @module incident-desk/stateless/http-server: the stateless desk over Streamable HTTP at `/mcp`: 2026-07-28 only,
 * POST only (GET and DELETE get 405), a fresh server per request, legacy requests refused with -32022.
 */
import { createMcpHandler } from '@modelcontextprotocol/server';

import type { HttpAddress } from '../args.js';
import { listenMcp, type RunningHttpServer } from '../http-listen.js';
import { createStatelessDeskServer, type StatelessDeskOptions } from './server.js';

export function startStatelessHttpServer(address: HttpAddress, options: StatelessDeskOptions): Promise<RunningHttpServer> {
  // The SDK's modern-only entry: envelope, headers (-32020), versions (-32022) and capabilities are checked
  // before the factory runs; `legacy: 'reject'` serves no 2025 traffic at all. It checks neither the path
  // nor Host/Origin: listenMcp does, first.
  const handler = createMcpHandler(() => createStatelessDeskServer(options), {
    legacy: 'reject',
    ...(options.onerror && { onerror: options.onerror }),
  });
  return listenMcp(address, (request) => handler.fetch(request), () => handler.close());
}
