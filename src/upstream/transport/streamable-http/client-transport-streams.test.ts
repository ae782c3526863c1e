/** @module Tests of the Streamable HTTP client transport reading SSE streams: messages tied to their request, any line endings, resumption by Last-Event-ID, the standalone GET stream. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { JsonRpcErrorResponse } from '../../../protocol/jsonrpc.js';
import { StreamableHttpClientTransport } from './client-transport.js';
import { scriptedUpstream, type Script } from './testing/scripted-upstream.js';
import { collect, until } from './testing/transport-watch.js';

const upstream = scriptedUpstream();

/** Sends tools/call `id` on a new transport and returns what it delivers for the call, which must be one error response. */
async function errorEndingCall(id: number): Promise<JsonRpcErrorResponse> {
  const transport = new StreamableHttpClientTransport(new URL(upstream.url), { label: 'up' });
  const seen = collect(transport);
  await transport.send({ jsonrpc: '2.0', id, method: 'tools/call', params: {} });
  await until(() => seen.length === 1);
  await transport.close();
  const [only] = seen;
  assert.ok(only && 'error' in only.message, `not an error response: ${JSON.stringify(only?.message)}`);
  return only.message;
}

test('messages read from a request’s SSE stream name that request; the session id is kept and sent back', async () => {
  const seenSessions: (string | undefined)[] = [];
  upstream.script = (body, req, res) => {
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
  const transport = new StreamableHttpClientTransport(new URL(upstream.url));
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
  upstream.script = (_body, _req, res) => void res.writeHead(202).end();
  await transport.close();
});

test('a stream that ends before the response, with no event id to resume from, yields an error for that call instead of a hang', async () => {
  upstream.script = (_body, _req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(': no id here\n\n');
  };
  const error = await errorEndingCall(5);
  assert.equal(error.id, 5);
  assert.match(error.error.message, /ended before the response/);
});

test('events are read whatever line endings end them (LF CR LF, CR LF LF, CR CR, CR LF CR LF), cut anywhere (issue 11 item 9)', async () => {
  const message = (id: number | string, method?: string) => JSON.stringify(method ? { jsonrpc: '2.0', id, method, params: {} } : { jsonrpc: '2.0', id, result: { ok: true } });
  upstream.script = (body, _req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const text = `data: ${message('q1', 'ping')}\n\r\nevent: message\r\ndata: ${message('q2', 'ping')}\r\n\ndata: ${message('q3', 'ping')}\r\rdata: ${message('q4', 'ping')}\r\n\r\ndata: ${message(body.id ?? 0)}\n\r\n`;
    // Cut between every \r and its \n, and elsewhere, so no chunk boundary is special.
    const cuts = [...text.matchAll(/\r/g)].map((m) => (m.index ?? 0) + 1);
    let start = 0;
    for (const cut of cuts) {
      res.write(text.slice(start, cut));
      start = cut;
    }
    res.end(text.slice(start));
  };
  const transport = new StreamableHttpClientTransport(new URL(upstream.url));
  const seen = collect(transport);
  await transport.send({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: {} });
  await until(() => seen.length === 5);
  assert.deepEqual(seen.map((s) => ('id' in s.message ? s.message.id : undefined)), ['q1', 'q2', 'q3', 'q4', 9]);
  upstream.script = (_body, _req, res) => void res.writeHead(202).end();
  await transport.close();
});

test('a stream closed after its priming event is resumed by GET with Last-Event-ID once retry has passed; what it brings belongs to the call', async () => {
  const gets: { lastEventId?: string; at: number }[] = [];
  let closedAt = 0;
  upstream.script = (body, req, res) => {
    if (req.method === 'GET') {
      gets.push({ lastEventId: req.headers['last-event-id'] as string | undefined, at: performance.now() });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('id: p-2\ndata:\n\n');
      res.write(`id: p-3\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } })}\n\n`);
      res.write(`id: p-4\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 7, result: { resumed: true } })}\n\n`);
      return; // left open, as a polling server may: the client ends it once the response is in
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('id: p-1\nretry: 150\ndata:\n\n');
    setTimeout(() => {
      closedAt = performance.now();
      res.end();
    }, 20);
    void body;
  };
  const transport = new StreamableHttpClientTransport(new URL(upstream.url), { reconnectDelayMs: 5000 });
  const seen = collect(transport);
  await transport.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: {} });
  await until(() => seen.length === 2);
  assert.deepEqual(seen.map((s) => [('method' in s.message ? s.message.method : 'response'), s.info?.relatedRequestId]), [
    ['notifications/progress', 7],
    ['response', 7],
  ]);
  assert.equal(gets.length, 1);
  assert.equal(gets[0]?.lastEventId, 'p-1');
  assert.ok((gets[0]?.at ?? 0) - closedAt >= 140, `reconnected ${(gets[0]?.at ?? 0) - closedAt} ms after the close, before retry (150 ms)`);
  upstream.script = (_body, _req, res) => void res.writeHead(202).end();
  await transport.close();
});

test('a resumption the server refuses ends the call with an error', async () => {
  upstream.script = (_body, req, res) => {
    if (req.method === 'GET') return void res.writeHead(405).end();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end('id: only\nretry: 10\ndata:\n\n');
  };
  const error = await errorEndingCall(8);
  assert.equal(error.id, 8);
});

test('a probe transport (standaloneStream: false) opens no GET stream after initialized', async () => {
  const methods: string[] = [];
  const answer: Script = (body, req, res) => {
    methods.push(req.method === 'GET' ? 'GET' : String(body.method));
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      return void res.write(': open\n\n');
    }
    if (body.method === 'initialize') {
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'probe' });
      return void res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: {} }));
    }
    res.writeHead(202).end();
  };
  for (const standaloneStream of [false, true]) {
    methods.length = 0;
    upstream.script = answer;
    const transport = new StreamableHttpClientTransport(new URL(upstream.url), { standaloneStream });
    collect(transport);
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(methods, standaloneStream ? ['initialize', 'notifications/initialized', 'GET'] : ['initialize', 'notifications/initialized']);
    upstream.script = (_body, _req, res) => void res.writeHead(202).end();
    await transport.close();
  }
});
