/** @module The retry of a 2026-07-28 multi round-trip request: the original params plus `inputResponses` and `requestState`. */

import type { JsonObject } from './jsonrpc.js';
import { isObject } from './jsonrpc.js';
import type { InputRequest } from './input-required.js';

/** The params a retry adds; everything else is the original request's. */
export const RETRY_PARAMS = ['inputResponses', 'requestState'] as const;

/** The original params of a request or retry: without `inputResponses` and `requestState` (the input is not changed). */
export function originalParams(params: JsonObject): JsonObject {
  const out: JsonObject = { ...params };
  for (const key of RETRY_PARAMS) delete out[key];
  return out;
}

/**
 * The params of a retry: the original params (any earlier round's answers and state removed), plus
 * `inputResponses` when there are answers and `requestState` exactly as the server gave it. A
 * server that gave no state gets none back.
 */
export function retryParams(original: JsonObject, answers: { inputResponses?: Record<string, JsonObject>; requestState?: string }): JsonObject {
  const out = originalParams(original);
  if (answers.inputResponses !== undefined && Object.keys(answers.inputResponses).length > 0) out.inputResponses = answers.inputResponses;
  if (answers.requestState !== undefined) out.requestState = answers.requestState;
  return out;
}

export interface RetryParts {
  /** Answers by input request key; absent when the request carries none. */
  inputResponses?: Record<string, JsonObject>;
  /** The state echoed from the previous round; absent on a first request. */
  requestState?: string;
}

export type RetryRead = { ok: true; retry: RetryParts } | { ok: false; reason: string };

/** Reads the retry fields of a request's params: `inputResponses` an object of objects, `requestState` a string. Never throws. */
export function readRetryParams(params: unknown): RetryRead {
  if (params === undefined) return { ok: true, retry: {} };
  if (!isObject(params)) return { ok: false, reason: 'params must be an object' };
  const retry: RetryParts = {};
  if (Object.hasOwn(params, 'inputResponses')) {
    const responses = params.inputResponses;
    if (!isObject(responses)) return { ok: false, reason: 'inputResponses must be an object keyed by input request' };
    for (const [key, response] of Object.entries(responses)) {
      if (!isObject(response)) return { ok: false, reason: `inputResponses.${key} must be an object` };
    }
    retry.inputResponses = responses as Record<string, JsonObject>;
  }
  if (Object.hasOwn(params, 'requestState')) {
    if (typeof params.requestState !== 'string') return { ok: false, reason: 'requestState must be a string' };
    retry.requestState = params.requestState;
  }
  return { ok: true, retry };
}

/**
 * Why `response` cannot answer `request`, or `undefined` when its shape fits: an elicitation needs an
 * `action` of accept, decline or cancel (and an object `content`, if any); sampling a `role`, a
 * `model` string and `content`; roots a `roots` array. Embedded answers are bare results: no
 * `resultType`. The content itself is checked elsewhere (against the schema the question was sent).
 */
export function inputResponseProblem(request: InputRequest, response: unknown): string | undefined {
  if (!isObject(response)) return 'an answer must be an object';
  if ('resultType' in response) return 'an embedded answer carries no resultType';
  switch (request.method) {
    case 'elicitation/create':
      if (response.action !== 'accept' && response.action !== 'decline' && response.action !== 'cancel') return 'action must be accept, decline or cancel';
      if (response.content !== undefined && !isObject(response.content)) return 'content must be an object';
      return undefined;
    case 'sampling/createMessage':
      if (typeof response.role !== 'string' || typeof response.model !== 'string') return 'a sampling answer needs role and model';
      if (!isObject(response.content) && !Array.isArray(response.content)) return 'a sampling answer needs content';
      return undefined;
    case 'roots/list':
      return Array.isArray(response.roots) ? undefined : 'a roots answer needs a roots array';
  }
}
