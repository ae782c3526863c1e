/** @module A scripted node:http server for the CLI's tests: records every request, answers each from a test's handler. */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface ScriptedReply {
  status: number;
  /** JSON-encoded unless a string. */
  body?: unknown;
  headers?: Record<string, string>;
}

export type Script = (request: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>;

export interface ScriptedServer {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Replaces the handler. */
  script(handler: Script): void;
  close(): Promise<void>;
}

export async function startScriptedServer(initial: Script = () => ({ status: 404 })): Promise<ScriptedServer> {
  let handler = initial;
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const recorded: RecordedRequest = { method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, body };
      requests.push(recorded);
      void Promise.resolve(handler(recorded)).then((reply) => {
        const text = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(text);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(next) {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
