/**
 * @module e2e/host-session-limits.test: issue 11 items 2, 3 and 16 through `switchboard serve`: a call longer than the idle
 * timeout and an open GET stream keep their session; an idle /sse session is reaped; at `http.maxSessions` with every session
 * busy a new one gets 503 with Retry-After; a client trickling its headers is cut off while a held-open SSE stream keeps working.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';

import { type RunningGateway, startGateway } from './harness/gateway.js';
import { RawHost } from './harness/raw-host.js';
import type { MessageReader } from './harness/sse-reader.js';
import { toolText } from './harness/tool-results.js';
import { labStdio } from './harness/upstreams.js';

const ACCEPT_BOTH = 'application/json, text/event-stream';

async function pingStatus(host: RawHost, id: number): Promise<number> {
  return (await host.post({ jsonrpc: '2.0', id, method: 'ping' })).status;
}

async function initializeStatus(url: string): Promise<{ status: number; retryAfter: string | null; body: string }> {
  const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-e2e-host', version: '1.0.0' } } };
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH }, body: JSON.stringify(init) });
  const body = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body };
}

describe('idle timeout vs busy sessions (http.sessionIdleTimeout: 1s)', () => {
  let gateway: RunningGateway;
  before(async () => {
    gateway = await startGateway({ upstreams: { lab: labStdio() }, http: { sessionIdleTimeout: '1s' } });
  });
  after(() => gateway?.stop());

  test('item 16: a 3-second call under a 1-second idle timeout gets its result, and the session lives on', { timeout: 60_000 }, async (t) => {
    const host = await RawHost.connect(gateway.url);
    t.after(() => host.close());
    const messages = await (await host.callTool(1, 'count', { n: 1, delayMs: 3000 })).rest();
    assert.equal(toolText(messages.at(-1)), 'counted 1', JSON.stringify(messages));
    assert.equal(await pingStatus(host, 2), 200, 'the session is still there after the call');
  });

  test('item 16: an open GET stream keeps its session past the idle timeout; without one it is closed', { timeout: 60_000 }, async (t) => {
    const listening = await RawHost.connect(gateway.url);
    const quiet = await RawHost.connect(gateway.url);
    t.after(() => Promise.all([listening.close(), quiet.close()]).then(() => undefined));
    await listening.openGetStream();
    // Five idle timeouts without a request on either session (any request would count as use).
    await sleep(5000);
    assert.equal(await pingStatus(quiet, 1), 404, 'the quiet session was closed');
    assert.equal(await pingStatus(listening, 2), 200, 'the session with a GET stream is not idle');
  });

  test('item 2: a legacy /sse session with no traffic is closed after the idle timeout', { timeout: 60_000 }, async () => {
    const abort = new AbortController();
    const response = await fetch(new URL('/sse', gateway.url), { headers: { accept: 'text/event-stream' }, signal: abort.signal });
    assert.equal(response.status, 200);
    const text = await Promise.race([response.text(), sleep(30_000).then(() => 'still open after 30 s')]);
    abort.abort();
    assert.doesNotMatch(text, /still open/, 'the idle /sse stream ended');
    assert.match(text, /^event: endpoint\ndata: \/messages\?sessionId=/);
  });
});

describe('session cap and slow clients (http.maxSessions: 2, headersTimeout: 1s, requestTimeout: 2s)', () => {
  let gateway: RunningGateway;
  before(async () => {
    gateway = await startGateway({ upstreams: { lab: labStdio() }, http: { maxSessions: 2, headersTimeout: '1s', requestTimeout: '2s' } });
  });
  after(() => gateway?.stop());

  test('item 2: with two busy sessions a third initialize gets 503 with Retry-After; once one ends, a new one opens', { timeout: 60_000 }, async (t) => {
    const a = await RawHost.connect(gateway.url);
    const b = await RawHost.connect(gateway.url);
    t.after(() => Promise.all([a.close(), b.close()]).then(() => undefined));
    await a.openGetStream();
    await b.openGetStream();
    const refused = await initializeStatus(gateway.url);
    assert.equal(refused.status, 503, refused.body);
    assert.match(refused.retryAfter ?? '', /^\d+$/);
    assert.equal((JSON.parse(refused.body) as { error: { code: number } }).error.code, -32603);
    assert.equal(await pingStatus(a, 1), 200, 'the open sessions are untouched');
    await b.close();
    const c = await RawHost.connect(gateway.url);
    t.after(() => c.close());
    assert.equal(await pingStatus(c, 2), 200);
  });

  test('item 3: a client sending one header line a second is cut off; a held-open GET stream keeps working past both timeouts', { timeout: 60_000 }, async (t) => {
    const host = await RawHost.connect(gateway.url);
    t.after(() => host.close());
    const standalone: MessageReader = await host.openGetStream();
    const { port } = new URL(gateway.url);
    const socket = connect(Number(port), '127.0.0.1');
    t.after(() => socket.destroy());
    let closed = false;
    socket.on('close', () => void (closed = true));
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    let lines = 0;
    while (!closed && lines < 30) {
      socket.write(`X-Slow-${lines}: a\r\n`);
      lines += 1;
      await sleep(1000);
    }
    assert.ok(closed, `the gateway was still reading headers after ${lines} lines`);
    // The GET stream has been open longer than both timeouts: a list change still reaches it.
    assert.equal(toolText(await host.call(3, 'tools/call', { name: 'toggle_extra' })), 'extra registered');
    await standalone.until((message) => message.method === 'notifications/tools/list_changed');
  });
});
