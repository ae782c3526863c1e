/** @module Reads a JSON request body under the two limits every HTTP edge applies: `http.maxBodySize` and `http.maxJsonDepth`. */

import { jsonDepthMessage, parseJsonWithin } from '../../protocol/json-depth.js';
import { readBodyCapped } from './read-body.js';
import { errorResponse } from './status.js';

export interface JsonBodyLimits {
  maxBodyBytes: number;
  maxJsonDepth: number;
}

export type JsonBodyResult =
  /** `bytes`: the body as sent (what the cluster link forwards). */
  | { kind: 'ok'; value: unknown; bytes: Uint8Array }
  | { kind: 'too-large' }
  /** Not UTF-8, or not JSON. */
  | { kind: 'not-json' }
  | { kind: 'too-deep'; maxDepth: number };

/** Strict UTF-8 (a bad byte is an error, not U+FFFD); decode() without `stream` keeps no state between calls, so one serves every request. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The body as a JSON value; its depth is checked before it is parsed, so deep nesting never reaches a recursive parser. */
export async function readJsonBody(req: Request, limits: JsonBodyLimits): Promise<JsonBodyResult> {
  const body = await readBodyCapped(req, limits.maxBodyBytes);
  if (body.kind === 'too-large') return body;
  let text: string;
  try {
    text = UTF8.decode(body.bytes);
  } catch {
    return { kind: 'not-json' };
  }
  const parsed = parseJsonWithin(text, limits.maxJsonDepth);
  if (parsed.ok) return { kind: 'ok', value: parsed.value, bytes: body.bytes };
  return parsed.problem === 'too-deep' ? { kind: 'too-deep', maxDepth: parsed.maxDepth } : { kind: 'not-json' };
}

/** The MCP edges' answer to a body that was refused: 413, or 400 with -32700 (not JSON) or -32600 (too deep). */
export function jsonBodyErrorResponse(result: Exclude<JsonBodyResult, { kind: 'ok' }>, limits: JsonBodyLimits): Response {
  switch (result.kind) {
    case 'too-large':
      return errorResponse('BODY_TOO_LARGE', `Payload Too Large: the body exceeds ${limits.maxBodyBytes} bytes`);
    case 'not-json':
      return errorResponse('PARSE_ERROR', 'Parse error: the body is not valid JSON');
    case 'too-deep':
      return errorResponse('JSON_TOO_DEEP', jsonDepthMessage(result.maxDepth));
  }
}
