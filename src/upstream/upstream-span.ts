/**
 * @module The client span of each request the gateway sends an upstream (`<method> <target>`, a child of the host request
 * it serves), its context sent on (HTTP headers; `_meta` for 2026-07-28 upstreams and wherever the caller's was),
 * and the open spans by request id, so a question the upstream asks during a call can name the call's span.
 */

import { carrierOf, withTraceContext } from '../core/tracing/trace-meta.js';
import type { TraceSpan } from '../core/tracing/trace-port.js';
import { NOOP_SPAN, tracer } from '../core/tracing/trace-port.js';
import type { UpstreamSpec } from '../config/types.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';

/** What the span needs to know of the upstream session. */
export interface TracedUpstream {
  readonly spec: UpstreamSpec;
  readonly era: 'legacy' | 'modern' | undefined;
  readonly protocolVersion?: string | undefined;
}

/** The outgoing request with its trace context added. */
export interface TracedRequest {
  span: TraceSpan;
  params: JsonObject | undefined;
  headers: Record<string, string> | undefined;
}

/** The spans of requests in flight, per upstream session (only while tracing is on). */
const open = new WeakMap<object, Map<number, TraceSpan>>();

/** The network.transport of an upstream: a pipe for stdio, TCP for HTTP. */
function transportOf(spec: UpstreamSpec): string {
  return spec.kind === 'stdio' ? 'pipe' : 'tcp';
}

/** The span name's target: the tool or prompt the request names, else the upstream. */
function targetOf(method: string, params: JsonObject | undefined, upstream: string): string {
  const name = params?.name;
  return (method === 'tools/call' || method === 'prompts/get') && typeof name === 'string' ? name : upstream;
}

/**
 * Starts the span of request `id` to `upstream` and puts its context on the request. Tracing off: the request as it
 * was, and the no-op span (nothing is allocated).
 */
export function traceUpstreamRequest(upstream: TracedUpstream, method: string, params: JsonObject | undefined, id: number, headers: Record<string, string> | undefined): TracedRequest {
  const traces = tracer();
  if (!traces.enabled) return { span: NOOP_SPAN, params, headers };
  const name = upstream.spec.name;
  const target = targetOf(method, params, name);
  const span = traces.startSpan(`${method} ${target}`, {
    kind: 'client',
    attributes: {
      'mcp.method.name': method,
      'mcp.target': target,
      'switchboard.upstream': name,
      'jsonrpc.request.id': String(id),
      'network.transport': transportOf(upstream.spec),
      'mcp.protocol.version': upstream.protocolVersion,
      ...(method === 'tools/call' && typeof params?.name === 'string' ? { 'gen_ai.tool.name': params.name, 'gen_ai.operation.name': 'execute_tool' } : {}),
      ...(method === 'prompts/get' && typeof params?.name === 'string' ? { 'gen_ai.prompt.name': params.name } : {}),
      ...(method === 'resources/read' && typeof params?.uri === 'string' ? { 'mcp.resource.uri': params.uri } : {}),
    },
  });
  const carrier = span.carrier();
  const inMeta = upstream.era === 'modern' || carrierOf(params).traceparent !== undefined || (isObject(params?._meta) && 'traceparent' in params._meta);
  const overHttp = upstream.spec.kind !== 'stdio';
  let spans = open.get(upstream);
  if (!spans) open.set(upstream, (spans = new Map()));
  spans.set(id, span);
  return {
    span,
    params: inMeta ? (withTraceContext(params, carrier) as JsonObject | undefined) : params,
    headers: overHttp && carrier.traceparent !== undefined ? { ...headers, ...carrier } as Record<string, string> : headers,
  };
}

/** Ends the span of request `id` with how it went: a result, or the error that ended it (a timeout, a cancel, a JSON-RPC error). */
export function endUpstreamRequest(upstream: object, id: number, span: TraceSpan, error?: unknown): void {
  if (!span.recording) return;
  open.get(upstream)?.delete(id);
  if (error !== undefined) {
    const code = isObject(error) && (typeof error.code === 'number' || typeof error.code === 'string') ? String(error.code) : undefined;
    span.fail(error instanceof Error ? error.message : String(error), code ?? (error instanceof Error ? error.name : 'error'));
    if (code !== undefined) span.setAttributes({ 'rpc.response.status_code': code });
  }
  span.end();
}

/** The span of the request `id` to `upstream` still in flight (the call a question belongs to), if tracing is on. */
export function upstreamRequestSpan(upstream: object, id: number | undefined): TraceSpan | undefined {
  return id === undefined ? undefined : open.get(upstream)?.get(id);
}
