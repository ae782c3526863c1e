/** @module Tests of the Streamable HTTP client transport sending 2026-07-28 requests (docs/design/008-modern-upstreams.md): headers, refusals as answers, cancellation by disconnect. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { TransportError } from '../transport.js';
import { StreamableHttpClientTransport } from './client-transport.js';
import { scriptedUpstream } from './testing/scripted-upstream.js';
import { collect, until } from './testing/transport-watch.js';

const upstream = scriptedUpstream();

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};

test('a request with the 2026-07-28 envelope carries MCP-Protocol-Version, Mcp-Method and Mcp-Name; others do not', async () => {
  const seen: Record<string, string | undefined>[] = [];
  upstream.script = (body, req, res) => {
    seen.push({ version: req.headers['mcp-protocol-version'] as string, method: req.headers['mcp-method'] as string, name: req.headers['mcp-name'] as string, session: req.headers['mcp-session-id'] as string });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { resultType: 'complete' } }));
  };
  const transport = new StreamableHttpClientTransport(new URL(upstream.url));
  const replies = collect(transport);
  await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'café', arguments: {}, _meta: ENVELOPE } });
  await transport.send({ jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: ENVELOPE } });
  await transport.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'legacy' } });
  await until(() => replies.length === 3);
  assert.deepEqual(seen, [
    { version: '2026-07-28', method: 'tools/call', name: '=?base64?Y2Fmw6k=?=', session: undefined },
    { version: '2026-07-28', method: 'server/discover', name: undefined, session: undefined },
    { version: undefined, method: undefined, name: undefined, session: undefined },
  ]);
  await transport.close();
});

test('a 2026-07-28 refusal (4xx with a JSON-RPC error for our id) is delivered as the answer; anything else stays a TransportError with the status', async () => {
  const refusal = { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2025-11-25'], requested: '2026-07-28' } };
  upstream.script = (body, _req, res) => {
    if (body.id === 1) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, error: refusal }));
      return;
    }
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' } }));
  };
  const transport = new StreamableHttpClientTransport(new URL(upstream.url), { label: 'up' });
  const seen = collect(transport);
  await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: ENVELOPE } });
  assert.deepEqual(seen, [{ message: { jsonrpc: '2.0', id: 1, error: refusal }, info: { relatedRequestId: 1 } }]);

  const legacyStyle = await transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: ENVELOPE } }).then(() => undefined, (e: unknown) => e);
  assert.ok(legacyStyle instanceof TransportError);
  assert.equal(legacyStyle.status, 400);
  assert.deepEqual(legacyStyle.rpcError, { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' });
  assert.equal(legacyStyle.sessionExpired, false);

  const legacyRequest = await transport.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }).then(() => undefined, (e: unknown) => e);
  assert.ok(legacyRequest instanceof TransportError, 'a legacy request keeps the old behaviour even when the body names its id');
  assert.equal(seen.length, 1);
  await transport.close();
});

test('abortRequest closes that request\'s stream (the 2026-07-28 cancellation): the server sees the disconnect, nothing is made up for it', async () => {
  let disconnected = false;
  upstream.script = (_body, req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 9, progress: 1 } })}\n\n`);
    req.socket.on('close', () => (disconnected = true));
  };
  const transport = new StreamableHttpClientTransport(new URL(upstream.url));
  const errors: Error[] = [];
  transport.onerror = (error) => errors.push(error);
  const seen = collect(transport);
  await transport.send({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'slow', _meta: ENVELOPE } });
  await until(() => seen.length === 1);
  assert.equal(transport.abortRequest(9), true);
  await until(() => disconnected);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(seen.length, 1, 'no synthesized error for an aborted request');
  assert.deepEqual(errors, []);
  await transport.close();
});
