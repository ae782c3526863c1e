/**
 * @module incident-desk/stateless/stdio-server: the stateless desk over stdio: 2026-07-28 only, every request
 * carries its own envelope, an `initialize` is answered -32022; the process ends when the host closes stdin.
 */
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';

import { createStatelessDeskServer, type StatelessDeskOptions } from './server.js';

export function serveStatelessStdio(options: StatelessDeskOptions): StdioServerHandle {
  return serveStdio(() => createStatelessDeskServer(options), {
    legacy: 'reject',
    ...(options.onerror && { onerror: options.onerror }),
  });
}
