/** @module A node:http upstream for transport tests that answers each request with whatever script the test sets. */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';

/** How the upstream answers one request: the parsed JSON body (empty for a GET), the request and the response to write. */
export type Script = (body: { id?: number; method?: string }, req: IncomingMessage, res: ServerResponse) => void;

/** The upstream as a test sees it: the script it follows now, and its /mcp URL once listening. */
export interface ScriptedUpstream {
  script: Script;
  readonly url: string;
}

/**
 * Starts a loopback upstream before the file's tests and closes it after them; every request waits for its whole
 * body, then goes to the current `script` (at first one that never answers).
 */
export function scriptedUpstream(): ScriptedUpstream {
  let url = '';
  const upstream: ScriptedUpstream = {
    script: () => undefined,
    get url() {
      return url;
    },
  };
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => upstream.script(text ? JSON.parse(text) : {}, req, res));
  });
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return upstream;
}
