/** @module The server span of each request a host sends (`<method> <target>`): the root of its trace, or a child of the host's own `traceparent`. */

import { carrierOf } from '../core/tracing/trace-meta.js';
import type { TraceCarrier, TraceSpan } from '../core/tracing/trace-port.js';
import { NOOP_SPAN, tracer } from '../core/tracing/trace-port.js';
import type { JsonRpcRequest } from '../protocol/jsonrpc.js';

/** Runs `serve`, the handling of a host's request, inside its span; the span ends with it, failed when it threw. */
export async function traceHostRequest<T>(request: JsonRpcRequest, hostSessionId: string, protocolVersion: string | undefined, serve: () => Promise<T>, header?: TraceCarrier): Promise<T> {
  const traces = tracer();
  if (!traces.enabled) return serve();
  const span = hostRequestSpan(request, hostSessionId, protocolVersion, header);
  try {
    return await traces.within(span, serve);
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
    span.fail(error instanceof Error ? error.message : String(error), code);
    throw error;
  } finally {
    span.end();
  }
}

/** The span of one host request; its parent is the `traceparent` in the request's `_meta`, else the one its HTTP request carried. */
export function hostRequestSpan(request: JsonRpcRequest, hostSessionId: string, protocolVersion: string | undefined, header?: TraceCarrier): TraceSpan {
  const traces = tracer();
  if (!traces.enabled) return NOOP_SPAN;
  const params = request.params ?? {};
  const name = typeof params.name === 'string' && (request.method === 'tools/call' || request.method === 'prompts/get') ? params.name : undefined;
  const fromMeta = carrierOf(params);
  const parent = fromMeta.traceparent !== undefined ? fromMeta : header?.traceparent !== undefined ? header : undefined;
  return traces.startSpan(name === undefined ? request.method : `${request.method} ${name}`, {
    kind: 'server',
    ...(parent ? { parent } : {}),
    attributes: {
      'mcp.method.name': request.method,
      'mcp.target': name,
      'mcp.session.id': hostSessionId,
      'jsonrpc.request.id': String(request.id),
      'mcp.protocol.version': protocolVersion,
      ...(request.method === 'tools/call' ? { 'gen_ai.tool.name': name, 'gen_ai.operation.name': 'execute_tool' } : {}),
      ...(request.method === 'prompts/get' ? { 'gen_ai.prompt.name': name } : {}),
      ...(request.method === 'resources/read' && typeof params.uri === 'string' ? { 'mcp.resource.uri': params.uri } : {}),
    },
  });
}
