/** @module incident-desk/node-adapter: serves a `(Request) => Promise<Response>` handler on a plain node:http server. */
import type { IncomingMessage, ServerResponse } from 'node:http';

export type FetchHandler = (request: Request) => Promise<Response>;

const MAX_BODY_BYTES = 4 * 1024 * 1024;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new Error(`request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** The web Request for a node request; `signal` aborts when the client goes away. */
export async function toWebRequest(req: IncomingMessage, signal: AbortSignal): Promise<Request> {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i] ?? '', req.rawHeaders[i + 1] ?? '');
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(url, { method, headers, signal, ...(hasBody && { body: new Uint8Array(await readBody(req)) }) });
}

/** Copies status, headers and body (streamed chunk by chunk, so SSE events go out as they are written). */
export async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: string[] = [];
  response.headers.forEach((value, name) => headers.push(name, value));
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.on('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // The client went away or the stream was cancelled: nothing left to write.
  } finally {
    res.end();
  }
}

/** A node:http request listener that runs `handler`. */
export function nodeListener(handler: FetchHandler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    void (async () => {
      try {
        await writeWebResponse(await handler(await toWebRequest(req, abort.signal)), res);
      } catch (error) {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`internal error: ${error instanceof Error ? error.message : String(error)}`);
      }
    })();
  };
}
