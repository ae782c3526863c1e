/** @module W3C trace context in a request's `params._meta` (`traceparent`, `tracestate`, `baggage`, no prefix), read and written. */

import type { TraceCarrier } from './trace-port.js';

/** The keys OpenTelemetry puts in `_meta` (MCP 2026-07-28 names them; earlier revisions allow any `_meta` key). */
export const TRACE_META_KEYS = ['traceparent', 'tracestate', 'baggage'] as const;

/** Longest tracestate and baggage kept from a caller (W3C: 512 and 8192 bytes); longer ones are dropped, not cut. */
const MAX_TRACESTATE = 512;
const MAX_BAGGAGE = 8192;

const TRACEPARENT_RE = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;

/** Whether `value` is a W3C traceparent: version (not ff), trace id and span id (neither all zeros), flags. */
export function isTraceparent(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = TRACEPARENT_RE.exec(value);
  if (!match || value.startsWith('ff')) return false;
  return !/^0+$/.test(match[1] as string) && !/^0+$/.test(match[2] as string);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The trace context named by strings (headers or `_meta` values): nothing without a valid traceparent. */
export function carrierFrom(traceparent: unknown, tracestate: unknown, baggage: unknown): TraceCarrier {
  if (!isTraceparent(traceparent)) return {};
  return {
    traceparent,
    ...(typeof tracestate === 'string' && tracestate.length <= MAX_TRACESTATE ? { tracestate } : {}),
    ...(typeof baggage === 'string' && baggage.length <= MAX_BAGGAGE ? { baggage } : {}),
  };
}

/** The trace context a request's params carry in `_meta`. */
export function carrierOf(params: unknown): TraceCarrier {
  const meta = isObject(params) ? params['_meta'] : undefined;
  if (!isObject(meta)) return {};
  return carrierFrom(meta['traceparent'], meta['tracestate'], meta['baggage']);
}

/**
 * `params` with `carrier` as its `_meta` trace keys: the caller's own trace keys replaced (the upstream's parent is the
 * gateway's span, not the host's), every other key kept. A copy; with an empty carrier, `params` itself.
 */
export function withTraceContext<P extends Record<string, unknown>>(params: P | undefined, carrier: TraceCarrier): P | Record<string, unknown> | undefined {
  if (carrier.traceparent === undefined) return params;
  const meta: Record<string, unknown> = isObject(params?.['_meta']) ? { ...(params['_meta'] as Record<string, unknown>) } : {};
  for (const key of TRACE_META_KEYS) delete meta[key];
  for (const key of TRACE_META_KEYS) if (carrier[key] !== undefined) meta[key] = carrier[key];
  return { ...params, _meta: meta };
}
