/** @module Tests of the Streamable HTTP client transport against a scripted node:http upstream. */

import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';

import type { JsonRpcMessage } from '../../protocol/jsonrpc.js';
import type { MessageInfo } from '../transport.js';
import { TransportError } from '../transport.js';
import { StreamableHttpClientTransport } from './client-transport.js';

type Script = (body: { id?: number; method?: string }, req: IncomingMessage, res: ServerResponse) => void;
let script: Script = () => undefined;
let url = '';
const server = createServer((req, res) => {
  let text = '';
  req.on('data', (chunk: Buffer) => (text += chunk.toString()));
  req.on('end', () => script(text ? JSON.parse(text) : {}, req, res));
});

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

function collect(transport: StreamableHttpClientTransport): { message: JsonRpcMessage; info?: MessageInfo }[] {
  const seen: { message: JsonRpcMessage; info?: MessageInfo }[] = [];
  transport.onmessage = (message, info) => seen.push({ message, info });
  return seen;
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((r) => setTimeout(r, 5));
  assert.ok(check(), 'condition not reached');
}

test('messages read from a request’s SSE stream name that request; the session id is kept and sent back', async () => {
  const seenSessions: (string | undefined)[] = [];
  script = (body, req, res) => {
    seenSessions.push(req.headers['mcp-session-id'] as string | undefined);
    if (body.method === 'initialize') {
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'up-session' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { protocolVersion: '2025-11-25' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('id: 1\ndata:\n\n');
    res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: 'q1', method: 'elicitation/create', params: {} })}\n\n`);
    res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { ok: true } })}\n\n`);
  };
  const transport = new StreamableHttpClientTransport(new URL(url));
  const seen = collect(transport);
  await transport.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
  await transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x' } });
  await until(() => seen.length === 3);
  assert.equal(transport.sessionId, 'up-session');
  assert.deepEqual(seenSessions, [undefined, 'up-session']);
  assert.deepEqual(seen.map((s) => [('method' in s.message ? s.message.method : 'response'), s.info?.relatedRequestId]), [
    ['response', 1],
    ['elicitation/create', 2],
    ['response', 2],
  ]);
  script = (_body, _req, res) => void res.writeHead(202).end();
  await transport.close();
});

test('a stream that ends before the response yields an error for that call instead of a hang', async () => {
  script = (_body, _req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end('id: 1\ndata:\n\n');
  };
  const transport = new StreamableHttpClientTransport(new URL(url), { label: 'up' });
  const seen = collect(transport);
  await transport.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: {} });
  await until(() => seen.length === 1);
  const [only] = seen;
  assert.ok(only && 'error' in only.message);
  assert.equal(only.message.id, 5);
  assert.match(only.message.error.message, /ended before the response/);
  await transport.close();
});

test('a 404 on a session we hold is reported as an expired session', async () => {
  script = (body, _req, res) => {
    if (body.method === 'initialize') {
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'gone' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: {} }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Session not found"}}');
  };
  const transport = new StreamableHttpClientTransport(new URL(url));
  collect(transport);
  await transport.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
  await assert.rejects(transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), (error: unknown) => error instanceof TransportError && error.sessionExpired);
  script = (_body, _req, res) => void res.writeHead(202).end();
  await transport.close();
});
