/** @module The shape the `arguments` of `tools/call` and `prompts/get` must have before a request is routed or forwarded. */

import { isObject } from './jsonrpc.js';

/**
 * What is wrong with a request's `arguments`, or undefined when it has the schema's shape (or is absent):
 * `tools/call` takes an object; `prompts/get` an object whose values are strings.
 */
export function callArgumentsProblem(method: 'tools/call' | 'prompts/get', params: Record<string, unknown>): string | undefined {
  const { arguments: args } = params;
  if (args === undefined) return undefined;
  if (!isObject(args)) return method === 'tools/call' ? 'arguments must be an object' : 'arguments must be an object of strings';
  if (method === 'prompts/get') {
    for (const [name, value] of Object.entries(args)) {
      if (typeof value !== 'string') return `arguments.${name} must be a string`;
    }
  }
  return undefined;
}
