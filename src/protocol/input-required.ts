/** @module `InputRequiredResult` (2026-07-28 multi round-trip requests): which methods may get one, its shape, checking and building it. */

import type { JsonObject } from './jsonrpc.js';
import { isObject } from './jsonrpc.js';

/** Only these requests may be answered with `input_required`. */
export const INPUT_REQUIRED_METHODS = ['tools/call', 'prompts/get', 'resources/read'] as const;
export type InputRequiredMethod = (typeof INPUT_REQUIRED_METHODS)[number];

/** What a server may ask inside an `input_required` result (the three former server requests). */
export const INPUT_REQUEST_METHODS = ['elicitation/create', 'sampling/createMessage', 'roots/list'] as const;
export type InputRequestMethod = (typeof INPUT_REQUEST_METHODS)[number];

/** An embedded request: no `jsonrpc`, no `id`. `params` may be absent only for `roots/list`. */
export interface InputRequest {
  method: InputRequestMethod;
  params?: JsonObject;
}

export interface InputRequiredResult {
  resultType: 'input_required';
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
  _meta?: JsonObject;
  [key: string]: unknown;
}

export function mayRequireInput(method: string): method is InputRequiredMethod {
  return (INPUT_REQUIRED_METHODS as readonly string[]).includes(method);
}

export function isInputRequestMethod(value: unknown): value is InputRequestMethod {
  return typeof value === 'string' && (INPUT_REQUEST_METHODS as readonly string[]).includes(value);
}

export type InputRequiredParse = { ok: true; result: InputRequiredResult } | { ok: false; reason: string };

/**
 * Checks an `input_required` result answering `method`: only tools/call, prompts/get and
 * resources/read may get one; `inputRequests`, when present, maps non-empty keys to `{method,
 * params}` of the three embedded methods (params an object; required except for roots/list; no
 * `jsonrpc` or `id`); `requestState`, when present, is a string; and the result asks something or
 * carries state (an empty `inputRequests` alone would make the client loop for nothing). Other
 * fields are kept. Never throws.
 */
export function parseInputRequiredResult(result: unknown, method: string): InputRequiredParse {
  if (!mayRequireInput(method)) return { ok: false, reason: `${method} may not be answered with input_required` };
  if (!isObject(result)) return { ok: false, reason: 'a result must be an object' };
  if (result.resultType !== 'input_required') return { ok: false, reason: 'resultType must be input_required' };
  const hasState = Object.hasOwn(result, 'requestState');
  if (hasState && typeof result.requestState !== 'string') return { ok: false, reason: 'requestState must be a string' };
  let requestCount = 0;
  if (Object.hasOwn(result, 'inputRequests')) {
    const requests = result.inputRequests;
    if (!isObject(requests)) return { ok: false, reason: 'inputRequests must be an object keyed by request' };
    for (const [key, request] of Object.entries(requests)) {
      const problem = inputRequestProblem(request);
      if (key.length === 0) return { ok: false, reason: 'an inputRequests key must not be empty' };
      if (problem !== undefined) return { ok: false, reason: `inputRequests.${key}: ${problem}` };
      requestCount++;
    }
  }
  if (requestCount === 0 && !hasState) return { ok: false, reason: 'input_required needs inputRequests or requestState' };
  if (result._meta !== undefined && !isObject(result._meta)) return { ok: false, reason: '_meta must be an object' };
  return { ok: true, result: result as InputRequiredResult };
}

/** Why a value is not an embedded input request, or `undefined` when it is one. */
export function inputRequestProblem(request: unknown): string | undefined {
  if (!isObject(request)) return 'must be an object';
  if (!isInputRequestMethod(request.method)) return `method must be one of ${INPUT_REQUEST_METHODS.join(', ')}`;
  if ('jsonrpc' in request || 'id' in request) return 'an embedded request carries no jsonrpc and no id';
  if (request.params === undefined) return request.method === 'roots/list' ? undefined : 'params are required';
  return isObject(request.params) ? undefined : 'params must be an object';
}

/** Builds an `input_required` result; at least one of `inputRequests` (non-empty) and `requestState` is required. */
export function inputRequiredResult(input: { inputRequests?: Record<string, InputRequest>; requestState?: string; _meta?: JsonObject }): InputRequiredResult {
  const hasRequests = input.inputRequests !== undefined && Object.keys(input.inputRequests).length > 0;
  if (!hasRequests && input.requestState === undefined) throw new TypeError('input_required needs inputRequests or requestState');
  const out: InputRequiredResult = { resultType: 'input_required' };
  if (hasRequests) out.inputRequests = input.inputRequests;
  if (input.requestState !== undefined) out.requestState = input.requestState;
  if (input._meta !== undefined) out._meta = input._meta;
  return out;
}
