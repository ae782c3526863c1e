/** @module Reads a request body with a byte cap, never buffering more than the cap. */

export type BodyReadResult = { kind: 'ok'; bytes: Uint8Array } | { kind: 'too-large' };

/**
 * Reads `req.body` up to `maxBytes`. A declared `Content-Length` above the cap is refused
 * without reading. A declared length within the cap is read whole in one go: the HTTP parser
 * delivers no more bytes than it declares, and the total is checked again (a Request built
 * in-process may declare anything). Without one the stream is read chunk by chunk and
 * cancelled as soon as the running total passes the cap.
 */
export async function readBodyCapped(req: Request, maxBytes: number): Promise<BodyReadResult> {
  const declared = Number(req.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await req.body?.cancel().catch(() => undefined);
    return { kind: 'too-large' };
  }
  // arrayBuffer(): on the node server's requests it reads the socket directly, without building a web stream per request.
  if (Number.isFinite(declared)) return withinCap(new Uint8Array(await req.arrayBuffer()), maxBytes);
  if (req.body === null) return { kind: 'ok', bytes: new Uint8Array(0) };
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return { kind: 'too-large' };
    }
    chunks.push(value);
  }
  if (chunks.length === 1 && chunks[0] !== undefined) return { kind: 'ok', bytes: chunks[0] };
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { kind: 'ok', bytes };
}

function withinCap(bytes: Uint8Array, maxBytes: number): BodyReadResult {
  return bytes.byteLength > maxBytes ? { kind: 'too-large' } : { kind: 'ok', bytes };
}
