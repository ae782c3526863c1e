/** @module One delivery attempt: a POST with Node's fetch under a timeout, no redirects followed, and what its outcome means (sent, to be retried, given up), never naming the URL. */

import type { Verdict } from './backoff.js';
import { parseRetryAfter, verdictOf } from './backoff.js';

/** How much of a refusing receiver's body the error quotes (Slack says why in it: `invalid_payload`, `no_service`). */
const QUOTED_BODY_CHARS = 200;
/** How much of the body is read at most to quote it; the rest is discarded. */
const READ_BODY_BYTES = 2048;

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

export type AttemptResult =
  | { outcome: 'sent'; status: number }
  | { outcome: 'retry'; status?: number; error: string; retryAfterMs?: number }
  | { outcome: 'give-up'; status?: number; error: string };

export interface PostOptions {
  now: () => number;
  /** Aborts the attempt (the gateway stops). */
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

/** The start of a body, on one line, read without taking more than READ_BODY_BYTES off the wire. */
async function bodyStart(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    while (length < READ_BODY_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      length += value.byteLength;
    }
  } catch {
    // A body cut off is quoted as far as it came.
  } finally {
    reader.cancel().catch(() => undefined);
  }
  const text = new TextDecoder().decode(Buffer.concat(chunks).subarray(0, READ_BODY_BYTES));
  return text.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim().slice(0, QUOTED_BODY_CHARS);
}

/** A network error in words, with every trace of the URL's path and query removed (a webhook URL is often its key). */
function networkError(error: unknown, url: string): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  const code = cause && 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined;
  const text = cause?.message ?? (error instanceof Error ? error.message : String(error));
  const words = code !== undefined && !text.includes(code) ? `${code}: ${text}` : text;
  const { pathname, search } = new URL(url);
  let clean = words.split(url).join('<url>');
  for (const part of [search, pathname]) if (part.length > 1) clean = clean.split(part).join('…');
  return clean.slice(0, QUOTED_BODY_CHARS);
}

async function answered(response: Response, now: () => number): Promise<AttemptResult> {
  const verdict: Verdict = verdictOf(response.status);
  if (verdict === 'sent') {
    response.body?.cancel().catch(() => undefined);
    return { outcome: 'sent', status: response.status };
  }
  if (response.status >= 300 && response.status < 400) {
    response.body?.cancel().catch(() => undefined);
    return { outcome: 'give-up', status: response.status, error: `HTTP ${response.status}: redirects are not followed` };
  }
  const said = await bodyStart(response);
  const error = `HTTP ${response.status}${said === '' ? '' : `: ${said}`}`;
  if (verdict === 'give-up') return { outcome: 'give-up', status: response.status, error };
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), now());
  return { outcome: 'retry', status: response.status, error, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
}

/** One POST of `request`; never throws. */
export async function postWebhook(request: WebhookRequest, options: PostOptions): Promise<AttemptResult> {
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  try {
    const response = await (options.fetch ?? fetch)(request.url, { method: 'POST', headers: request.headers, body: request.body, redirect: 'manual', signal });
    return await answered(response, options.now);
  } catch (error) {
    if (options.signal?.aborted) return { outcome: 'give-up', error: 'the gateway stopped before the receiver answered' };
    if (timeout.aborted) return { outcome: 'retry', error: `timed out after ${request.timeoutMs} ms` };
    return { outcome: 'retry', error: networkError(error, request.url) };
  }
}
