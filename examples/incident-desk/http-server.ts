/** @module incident-desk/http-server: the legacy (sessionful) desk over Streamable HTTP: the session router on HOST:PORT. */
import type { HttpAddress } from './args.js';
import { listenMcp, type RunningHttpServer } from './http-listen.js';
import { createSessionRouter } from './http-sessions.js';
import type { IncidentDeskOptions } from './options.js';
import { createIncidentDeskServer } from './server.js';

export type { RunningHttpServer } from './http-listen.js';

export function startHttpServer(address: HttpAddress, options: IncidentDeskOptions = {}): Promise<RunningHttpServer> {
  const router = createSessionRouter(() => createIncidentDeskServer(options));
  return listenMcp(address, (request) => router.handle(request), () => router.closeAll());
}
