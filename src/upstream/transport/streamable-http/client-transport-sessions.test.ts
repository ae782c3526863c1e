/** @module Tests of the Streamable HTTP client transport telling an expired upstream session from other refusals. */

import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { test } from 'node:test';

import { TransportError } from '../transport.js';
import { StreamableHttpClientTransport } from './client-transport.js';
import { scriptedUpstream } from './testing/scripted-upstream.js';
import { collect, until } from './testing/transport-watch.js';

const upstream = scriptedUpstream();

test('a 404 on a session we hold is reported as an expired session', async () => {
  upstream.script = (body, _req, res) => {
    if (body.method === 'initialize') {
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'gone' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: {} }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Session not found"}}');
  };
  const transport = new StreamableHttpClientTransport(new URL(upstream.url));
  collect(transport);
  await transport.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
  await assert.rejects(transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), (error: unknown) => error instanceof TransportError && error.sessionExpired);
  upstream.script = (_body, _req, res) => void res.writeHead(202).end();
  await transport.close();
});

/** Initializes `transport` against a script that answers every later POST with `status` and `body` (GET: 405). */
async function refusedAfterInitialize(status: number, body: string, onGet: (res: ServerResponse) => void = (res) => void res.writeHead(405).end()): Promise<StreamableHttpClientTransport> {
  upstream.script = (message, req, res) => {
    if (req.method === 'GET') return onGet(res);
    if (message.method === 'initialize') {
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'old' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {} }));
      return;
    }
    res.writeHead(status, { 'content-type': body.startsWith('{') ? 'application/json' : 'text/plain' });
    res.end(body);
  };
  const transport = new StreamableHttpClientTransport(new URL(upstream.url));
  collect(transport);
  await transport.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
  return transport;
}

const rpcRefusal = (code: number, message: string) => JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } });

test('a refusal that says the upstream no longer knows our session is an expired session, whatever the status (issue 11 item 17)', async () => {
  const forms: [number, string][] = [
    [400, rpcRefusal(-32001, 'Session not found')], // server-everything after a restart
    [400, rpcRefusal(-32000, 'Bad Request: No valid session ID provided')],
    [400, rpcRefusal(-32000, 'Bad Request: Server not initialized')], // one SDK transport for the whole process, restarted
    [400, 'Invalid or expired session id'],
    [410, rpcRefusal(-32000, 'Unknown session')],
  ];
  for (const [status, body] of forms) {
    const transport = await refusedAfterInitialize(status, body);
    await assert.rejects(
      transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      (error: unknown) => error instanceof TransportError && error.sessionExpired && error.status === status,
      `${status} ${body}`,
    );
    upstream.script = (_body, _req, res) => void res.writeHead(202).end();
    await transport.close();
  }
});

test('a refusal for another reason, or one before we hold a session, is not an expired session', async () => {
  const forms: [number, string][] = [
    [400, rpcRefusal(-32700, 'Parse error')],
    [400, rpcRefusal(-32000, 'Bad Request: Unsupported protocol version')],
    [400, rpcRefusal(-32000, 'Bad Request: Mcp-Session-Id header is required')],
    [500, rpcRefusal(-32603, 'Internal error')],
  ];
  for (const [status, body] of forms) {
    const transport = await refusedAfterInitialize(status, body);
    await assert.rejects(
      transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      (error: unknown) => error instanceof TransportError && !error.sessionExpired && error.status === status,
      `${status} ${body}`,
    );
    upstream.script = (_body, _req, res) => void res.writeHead(202).end();
    await transport.close();
  }
  upstream.script = (_body, _req, res) => void res.writeHead(400, { 'content-type': 'application/json' }).end(rpcRefusal(-32001, 'Session not found'));
  const fresh = new StreamableHttpClientTransport(new URL(upstream.url));
  collect(fresh);
  await assert.rejects(fresh.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), (error: unknown) => error instanceof TransportError && !error.sessionExpired);
  await fresh.close();
});

test('a GET stream refused with 400 "Session not found" closes the connection, so the next call re-initializes (issue 11 item 17)', async () => {
  const transport = await refusedAfterInitialize(202, '', (res) => void res.writeHead(400, { 'content-type': 'application/json' }).end(rpcRefusal(-32001, 'Session not found')));
  let closed = false;
  transport.onclose = () => (closed = true);
  await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await until(() => closed);
  upstream.script = (_body, _req, res) => void res.writeHead(202).end();
  await transport.close();
});
