/** @module A span per store write (`<store> <operation>`, a child of what is being written: a question's span, a host request's), around any store. */

import { tracer } from '../core/tracing/trace-port.js';

/** The writes of the question store and of the run store that get a span; reads get none (they are many and cheap). */
export const QUESTION_STORE_WRITES = ['create', 'createCommitted', 'transition', 'audit', 'abandonOpen'] as const;
export const RUN_STORE_WRITES = ['create', 'update', 'abandonRunning'] as const;

function idOf(first: unknown): string | undefined {
  if (typeof first === 'string') return first;
  if (typeof first === 'object' && first !== null) {
    const record = first as { id?: unknown; questionId?: unknown };
    if (typeof record.id === 'string') return record.id;
    if (typeof record.questionId === 'string') return record.questionId;
  }
  return undefined;
}

/**
 * `store` with a span around each of `writes` (named `<what> <operation>`, attributes db.system.name, db.operation.name
 * and the record's id), ended when the write settles, failed when it rejects. Tracing off when this is called: `store`
 * itself, so the default gateway pays nothing.
 */
export function tracedWrites<T extends object>(store: T, what: string, system: string, writes: readonly string[]): T {
  if (!tracer().enabled) return store;
  const wrapped = new Map<PropertyKey, unknown>();
  for (const name of writes) {
    const original = (store as Record<string, unknown>)[name];
    if (typeof original !== 'function') continue;
    wrapped.set(name, (...args: unknown[]) => {
      const span = tracer().startSpan(`${what} ${name}`, {
        kind: 'client',
        attributes: { 'db.system.name': system, 'db.operation.name': name, 'db.collection.name': what, 'switchboard.record.id': idOf(args[0]) },
      });
      try {
        const result = (original as (...a: unknown[]) => unknown).apply(store, args);
        if (result instanceof Promise) {
          return result.then(
            (value: unknown) => (span.end(), value),
            (error: unknown) => {
              span.fail(error instanceof Error ? error.message : String(error), 'store');
              span.end();
              throw error;
            },
          );
        }
        span.end();
        return result;
      } catch (error) {
        span.fail(error instanceof Error ? error.message : String(error), 'store');
        span.end();
        throw error;
      }
    });
  }
  return new Proxy(store, {
    get(target, property) {
      if (wrapped.has(property)) return wrapped.get(property);
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
