/** @module incident-desk/testing/sse: a small SSE reader for raw `fetch` tests: yields each event's JSON `data`. */

/** Parses one SSE event block; returns the joined `data` lines, or undefined for comments and empty (priming) events. */
export function parseSseEvent(block: string): string | undefined {
  const data = block
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).replace(/^ /, ''));
  if (data.length === 0) return undefined;
  const joined = data.join('\n');
  return joined === '' ? undefined : joined;
}

/** Yields the parsed JSON of every data-bearing event on `body`, in order, until the stream ends. */
export async function* sseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let boundary = buffer.search(/\r?\n\r?\n/);
      while (boundary !== -1) {
        const block = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary).replace(/^\r?\n\r?\n/, '');
        const data = parseSseEvent(block);
        if (data !== undefined) yield JSON.parse(data);
        boundary = buffer.search(/\r?\n\r?\n/);
      }
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}
