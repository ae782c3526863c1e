/** @module e2e/harness/header-recorder: a loopback HTTP forwarder in front of an upstream that keeps every request's headers and body, to show what the gateway sends an upstream. */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeaderRecorder {
  /** Where the gateway is pointed: the upstream's URL on the recorder's port. */
  readonly url: string;
  /** Each request's headers, in arrival order. */
  readonly requests: IncomingHttpHeaders[];
  readonly bodies: string[];
  close(): Promise<void>;
}

const HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

/** Forwards every request to `target`'s origin (same path), streaming the answer back. */
export async function startHeaderRecorder(target: string): Promise<HeaderRecorder> {
  const upstream = new URL(target);
  const requests: IncomingHttpHeaders[] = [];
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push(req.headers);
      bodies.push(body.toString('utf8'));
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name, value]) => !HOP.has(name) && typeof value === 'string')) as Record<string, string>;
      const method = req.method ?? 'GET';
      fetch(new URL(req.url ?? '/', upstream.origin), { method, headers, ...(method === 'GET' || method === 'HEAD' ? {} : { body }) })
        .then(async (answer) => {
          const back: Record<string, string> = {};
          answer.headers.forEach((value, name) => {
            if (!HOP.has(name)) back[name] = value;
          });
          res.writeHead(answer.status, back);
          if (!answer.body) return void res.end();
          const reader = answer.body.getReader();
          for (let next = await reader.read(); !next.done; next = await reader.read()) res.write(next.value);
          res.end();
        })
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    requests,
    bodies,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
