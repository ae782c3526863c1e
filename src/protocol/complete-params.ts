/** @module The checks a `completion/complete` request's `argument` and `context` must pass before it is forwarded. */

import { isObject } from './jsonrpc.js';

/**
 * What is wrong with the `argument` and `context` of completion/complete params, or undefined when
 * they have the schema's shape: `argument` `{name: string, value: string}`; `context`, if sent, an
 * object whose `arguments`, if sent, maps names to strings. (`ref` is checked where it is routed.)
 */
export function completeParamsProblem(params: Record<string, unknown>): string | undefined {
  const { argument, context } = params;
  if (!isObject(argument)) return 'argument must be an object {name, value}';
  if (typeof argument.name !== 'string') return 'argument.name must be a string';
  if (typeof argument.value !== 'string') return 'argument.value must be a string';
  if (context === undefined) return undefined;
  if (!isObject(context)) return 'context must be an object';
  const { arguments: resolved } = context;
  if (resolved === undefined) return undefined;
  if (!isObject(resolved)) return 'context.arguments must be an object of strings';
  for (const [name, value] of Object.entries(resolved)) {
    if (typeof value !== 'string') return `context.arguments.${name} must be a string`;
  }
  return undefined;
}
