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

test('a stream that ends before the response, with no event id to resume from, yields an error for that call instead of a hang', async () => {
  script = (_body, _req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(': no id here\n\n');
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

test('events are read whatever line endings end them (LF CR LF, CR LF LF, CR CR, CR LF CR LF), cut anywhere (issue 11 item 9)', async () => {
  const message = (id: number | string, method?: string) => JSON.stringify(method ? { jsonrpc: '2.0', id, method, params: {} } : { jsonrpc: '2.0', id, result: { ok: true } });
  script = (body, _req, res) => {
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
  const transport = new StreamableHttpClientTransport(new URL(url));
  const seen = collect(transport);
  await transport.send({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: {} });
  await until(() => seen.length === 5);
  assert.deepEqual(seen.map((s) => ('id' in s.message ? s.message.id : undefined)), ['q1', 'q2', 'q3', 'q4', 9]);
  script = (_body, _req, res) => void res.writeHead(202).end();
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

/** Initializes `transport` against a script that answers every later POST with `status` and `body` (GET: 405). */
async function refusedAfterInitialize(status: number, body: string, onGet: (res: ServerResponse) => void = (res) => void res.writeHead(405).end()): Promise<StreamableHttpClientTransport> {
  script = (message, req, res) => {
    if (req.method === 'GET') return onGet(res);
    if (message.method === 'initialize') {
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'old' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {} }));
      return;
    }
    res.writeHead(status, { 'content-type': body.startsWith('{') ? 'application/json' : 'text/plain' });
    res.end(body);
  };
  const transport = new StreamableHttpClientTransport(new URL(url));
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
    script = (_body, _req, res) => void res.writeHead(202).end();
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
    script = (_body, _req, res) => void res.writeHead(202).end();
    await transport.close();
  }
  script = (_body, _req, res) => void res.writeHead(400, { 'content-type': 'application/json' }).end(rpcRefusal(-32001, 'Session not found'));
  const fresh = new StreamableHttpClientTransport(new URL(url));
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
  script = (_body, _req, res) => void res.writeHead(202).end();
  await transport.close();
});

test('a stream closed after its priming event is resumed by GET with Last-Event-ID once retry has passed; what it brings belongs to the call', async () => {
  const gets: { lastEventId?: string; at: number }[] = [];
  let closedAt = 0;
  script = (body, req, res) => {
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
  const transport = new StreamableHttpClientTransport(new URL(url), { reconnectDelayMs: 5000 });
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
  script = (_body, _req, res) => void res.writeHead(202).end();
  await transport.close();
});

test('a resumption the server refuses ends the call with an error', async () => {
  script = (_body, req, res) => {
    if (req.method === 'GET') return void res.writeHead(405).end();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end('id: only\nretry: 10\ndata:\n\n');
  };
  const transport = new StreamableHttpClientTransport(new URL(url), { label: 'up' });
  const seen = collect(transport);
  await transport.send({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: {} });
  await until(() => seen.length === 1);
  const [only] = seen;
  assert.ok(only && 'error' in only.message);
  assert.equal(only.message.id, 8);
  await transport.close();
});

test('an authorizer answers a 401 challenge and the request is retried with its credentials', async () => {
  const authorizations: (string | undefined)[] = [];
  script = (body, req, res) => {
    authorizations.push(req.headers.authorization);
    if (req.headers.authorization !== 'Bearer fresh') {
      res.writeHead(401, { 'www-authenticate': 'Bearer resource_metadata="http://x/.well-known/oauth-protected-resource"' });
      return void res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: {} }));
  };
  let token: string | undefined;
  const challenges: number[] = [];
  const transport = new StreamableHttpClientTransport(new URL(url), {
    authorizer: {
      headers: async (): Promise<Record<string, string>> => (token ? { authorization: `Bearer ${token}` } : {}),
      challenge: async (response) => {
        challenges.push(response.status);
        token = 'fresh';
        return true;
      },
    },
  });
  const seen = collect(transport);
  await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  await until(() => seen.length === 1);
  assert.deepEqual(authorizations, [undefined, 'Bearer fresh']);
  assert.deepEqual(challenges, [401]);
  script = (_body, _req, res) => void res.writeHead(202).end();
  await transport.close();
});

test('an authorizer that cannot help leaves the refusal final; challenges are not retried forever', async () => {
  let attempts = 0;
  script = (_body, _req, res) => {
    attempts += 1;
    res.writeHead(403, { 'www-authenticate': 'Bearer error="insufficient_scope", scope="admin"' });
    res.end();
  };
  const transport = new StreamableHttpClientTransport(new URL(url), {
    authorizer: { headers: async () => ({ authorization: 'Bearer t' }), challenge: async () => true },
  });
  collect(transport);
  await assert.rejects(transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), /HTTP 403/);
  assert.equal(attempts, 4, 'the first try and three retries');
  await transport.close();
});

test('a probe transport (standaloneStream: false) opens no GET stream after initialized', async () => {
  const methods: string[] = [];
  const upstream: Script = (body, req, res) => {
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
    script = upstream;
    const transport = new StreamableHttpClientTransport(new URL(url), { standaloneStream });
    collect(transport);
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(methods, standaloneStream ? ['initialize', 'notifications/initialized', 'GET'] : ['initialize', 'notifications/initialized']);
    script = (_body, _req, res) => void res.writeHead(202).end();
    await transport.close();
  }
});

// ---- 2026-07-28 requests (docs/design/008-modern-upstreams.md) ----

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};

test('a request with the 2026-07-28 envelope carries MCP-Protocol-Version, Mcp-Method and Mcp-Name; others do not', async () => {
  const seen: Record<string, string | undefined>[] = [];
  script = (body, req, res) => {
    seen.push({ version: req.headers['mcp-protocol-version'] as string, method: req.headers['mcp-method'] as string, name: req.headers['mcp-name'] as string, session: req.headers['mcp-session-id'] as string });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { resultType: 'complete' } }));
  };
  const transport = new StreamableHttpClientTransport(new URL(url));
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
  script = (body, _req, res) => {
    if (body.id === 1) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, error: refusal }));
      return;
    }
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' } }));
  };
  const transport = new StreamableHttpClientTransport(new URL(url), { label: 'up' });
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
  script = (_body, req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 9, progress: 1 } })}\n\n`);
    req.socket.on('close', () => (disconnected = true));
  };
  const transport = new StreamableHttpClientTransport(new URL(url));
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
