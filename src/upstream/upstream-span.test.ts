import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';

import { NOOP_SPAN, installTracer } from '../core/tracing/trace-port.js';
import { RecordingTracer } from '../core/tracing/testing/recording-tracer.js';
import type { UpstreamSpec } from '../config/types.js';
import { endUpstreamRequest, traceUpstreamRequest, upstreamRequestSpan } from './upstream-span.js';

const common = { sharing: 'per-session', lists: 'shared', tools: { deny: [], rename: {} }, requestTimeoutMs: 1000, connectTimeoutMs: 1000, era: 'auto', inputRequired: { maxRounds: 8, deadlineMs: 1000 } } satisfies Omit<UpstreamSpec, 'kind' | 'name'>;
const http: UpstreamSpec = { ...common, name: 'remote', kind: 'streamable-http', url: 'http://127.0.0.1:1/mcp', headers: {} };
const stdio: UpstreamSpec = { ...common, name: 'desk', kind: 'stdio', command: 'node', args: [], env: {} };

describe('the span of an upstream request', () => {
  test('tracing off: the request goes as it was, with the no-op span', () => {
    const params = { name: 't', _meta: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' } };
    const traced = traceUpstreamRequest({ spec: http, era: 'modern' }, 'tools/call', params, 1, undefined);
    assert.equal(traced.span, NOOP_SPAN);
    assert.equal(traced.params, params);
    assert.equal(traced.headers, undefined);
  });

  describe('tracing on', () => {
    let recording: RecordingTracer;
    let uninstall: () => void;
    beforeEach(() => {
      recording = new RecordingTracer();
      uninstall = installTracer(recording);
    });
    afterEach(() => uninstall());

    test('an HTTP legacy upstream gets traceparent as a header, its params untouched; the span is named for the tool', () => {
      const session = { spec: http, era: 'legacy' as const, protocolVersion: '2025-11-25' };
      const traced = traceUpstreamRequest(session, 'tools/call', { name: 'restart', arguments: {} }, 7, { 'mcp-param-x': '1' });
      const span = recording.span('tools/call restart');
      assert.equal(span.kind, 'client');
      assert.deepEqual(span.attributes, {
        'mcp.method.name': 'tools/call', 'mcp.target': 'restart', 'switchboard.upstream': 'remote', 'jsonrpc.request.id': '7',
        'network.transport': 'tcp', 'mcp.protocol.version': '2025-11-25', 'gen_ai.tool.name': 'restart', 'gen_ai.operation.name': 'execute_tool',
      });
      assert.deepEqual(traced.params, { name: 'restart', arguments: {} });
      assert.deepEqual(traced.headers, { 'mcp-param-x': '1', traceparent: span.carrier().traceparent });
      assert.equal(upstreamRequestSpan(session, 7), traced.span);
      endUpstreamRequest(session, 7, traced.span);
      assert.equal(span.ended, true);
      assert.equal(upstreamRequestSpan(session, 7), undefined);
    });

    test('a 2026-07-28 upstream gets the context in _meta as well, replacing the host\'s', () => {
      const session = { spec: stdio, era: 'modern' as const };
      const traced = traceUpstreamRequest(session, 'resources/read', { uri: 'x://1', _meta: { traceparent: 'host', progressToken: 1 } }, 2, undefined);
      const span = recording.span('resources/read desk');
      assert.equal(span.attributes['mcp.resource.uri'], 'x://1');
      assert.deepEqual(traced.params, { uri: 'x://1', _meta: { progressToken: 1, traceparent: span.carrier().traceparent } });
      assert.equal(traced.headers, undefined);
    });

    test('a request that failed ends its span failed, naming the code', () => {
      const session = { spec: stdio, era: 'legacy' as const };
      const traced = traceUpstreamRequest(session, 'ping', undefined, 3, undefined);
      endUpstreamRequest(session, 3, traced.span, Object.assign(new Error('did not answer'), { code: -32001 }));
      const span = recording.span('ping desk');
      assert.deepEqual(span.failed, { message: 'did not answer', type: '-32001' });
      assert.equal(span.attributes['rpc.response.status_code'], '-32001');
    });
  });
});
