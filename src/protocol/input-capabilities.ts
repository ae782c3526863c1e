/** @module Which client capability each embedded input request needs, and whether a request's declared capabilities cover it. */

import type { JsonObject, JsonRpcErrorObject } from './jsonrpc.js';
import { isObject } from './jsonrpc.js';
import type { InputRequest } from './input-required.js';
import { missingCapabilityError } from './modern-errors.js';

/**
 * The capabilities (a ClientCapabilities fragment) an input request needs:
 * - elicitation in URL mode: `elicitation.url`; in form mode, or without a mode: `elicitation.form`
 *   (a bare `elicitation: {}` counts as form, see {@link coversInputRequest});
 * - sampling: `sampling`, plus `sampling.tools` when it offers `tools` or sets `toolChoice`
 *   (`includeContext` other than none is only a SHOULD in the spec and is not required here);
 * - roots/list: `roots`.
 */
export function requiredCapabilities(request: InputRequest): JsonObject {
  switch (request.method) {
    case 'elicitation/create':
      return request.params?.mode === 'url' ? { elicitation: { url: {} } } : { elicitation: { form: {} } };
    case 'sampling/createMessage':
      return request.params !== undefined && (request.params.tools !== undefined || request.params.toolChoice !== undefined) ? { sampling: { tools: {} } } : { sampling: {} };
    case 'roots/list':
      return { roots: {} };
  }
}

/** Whether the capabilities a request declared cover one input request. */
export function coversInputRequest(declared: unknown, request: InputRequest): boolean {
  const caps = isObject(declared) ? declared : {};
  switch (request.method) {
    case 'elicitation/create': {
      if (!isObject(caps.elicitation)) return false;
      const { form, url } = caps.elicitation;
      if (request.params?.mode === 'url') return isObject(url);
      return isObject(form) || (form === undefined && url === undefined);
    }
    case 'sampling/createMessage': {
      if (!isObject(caps.sampling)) return false;
      const needsTools = request.params !== undefined && (request.params.tools !== undefined || request.params.toolChoice !== undefined);
      return !needsTools || isObject(caps.sampling.tools);
    }
    case 'roots/list':
      return isObject(caps.roots);
  }
}

/**
 * The capabilities missing for a set of input requests, merged into one ClientCapabilities object
 * (the `requiredCapabilities` of a -32021), or `undefined` when the declared ones cover them all.
 */
export function missingInputCapabilities(declared: unknown, requests: Iterable<InputRequest>): JsonObject | undefined {
  let missing: JsonObject | undefined;
  for (const request of requests) {
    if (coversInputRequest(declared, request)) continue;
    missing = mergeCapabilities(missing ?? {}, requiredCapabilities(request));
  }
  return missing;
}

/** The -32021 error for input requests the declared capabilities do not cover, or `undefined` when they are all covered. */
export function inputCapabilityError(declared: unknown, requests: Iterable<InputRequest>): JsonRpcErrorObject | undefined {
  const missing = missingInputCapabilities(declared, requests);
  return missing === undefined ? undefined : missingCapabilityError(missing, 'The request did not declare the client capabilities its input requests need');
}

function mergeCapabilities(into: JsonObject, add: JsonObject): JsonObject {
  const out: JsonObject = { ...into };
  for (const [key, value] of Object.entries(add)) {
    const previous = out[key];
    out[key] = isObject(previous) && isObject(value) ? mergeCapabilities(previous, value) : value;
  }
  return out;
}
