/** @module A webhook receiver on loopback for the notify tests: records each request and answers as the test scripts it. */

import { createServer } from 'node:http';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers one request (by its index): a status, headers and body, or a delay first. */
export type Reply = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number };

export interface Receiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1; `reply(index, request)` decides each answer (default 200). */
export async function startReceiver(reply: (index: number, request: Received) => Reply = () => ({ status: 200 })): Promise<Receiver> {
  const received: Received[] = [];
  const answer = (response: ServerResponse, { status, headers = {}, body = '' }: Reply) => {
    if (response.destroyed) return;
    response.writeHead(status, headers);
    response.end(body);
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = { method: request.method ?? '', path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      const index = received.push(entry) - 1;
      const planned = reply(index, entry);
      if (planned.delayMs === undefined) answer(response, planned);
      else setTimeout(() => answer(response, planned), planned.delayMs).unref();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address !== 'object') throw new Error('the receiver has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
