/**
 * @module Tests of the cluster link at the HTTP edge over real sockets: two edges (two "instances") whose directory
 * names each other; a session of one used through the other, its owner gone or out of reach, a forged signature, and
 * what a draining instance hands on.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { ClusterLink } from './cluster-forward.js';
import type { ClusterDirectory } from './cluster-forward.js';
import { CLUSTER_HEADER, ownerOfSessionId } from './cluster-link.js';
import { createMcpHttpHandler } from './mcp-handler.js';
import type { McpHttpHandler } from './mcp-handler.js';
import { startHttpServer } from './node-server.js';
import type { RunningHttpServer } from './node-server.js';
import { FakeGateway } from './testing/fake-gateway.js';
import { testHttpSettings } from './testing/http-settings.js';
import { POST_HEADERS, initializeBody, messagesOf, readSse } from './testing/sse.js';

const SECRET = 'the-secret-of-this-test-cluster-0123456789';

/** The instances as the store would record them: up with an address, or down; `gone` answers isGone. */
class TestDirectory implements ClusterDirectory {
  readonly self: string;
  readonly places = new Map<string, { up: true; url?: string } | { up: false }>();
  readonly gone = new Set<string>();
  constructor(self: string) {
    this.self = self;
  }
  async place(id: string) {
    return this.places.get(id) ?? { up: false as const };
  }
  async isGone(id: string) {
    return this.gone.has(id);
  }
  async peer() {
    return [...this.places].find(([id, place]) => id !== this.self && place.up)?.[0];
  }
}

interface Instance {
  directory: TestDirectory;
  link: ClusterLink;
  handler: McpHttpHandler;
  server: RunningHttpServer;
  mcp: string;
}

async function instance(id: string): Promise<Instance> {
  const directory = new TestDirectory(id);
  const settings = testHttpSettings();
  const link = new ClusterLink({ directory, secret: SECRET, logger: settings.logger, maxBodyBytes: settings.maxBodyBytes });
  const handler = createMcpHttpHandler(new FakeGateway({ ready: true }), { ...settings, cluster: link });
  const server = await startHttpServer(handler, { host: '127.0.0.1', port: 0 });
  return { directory, link, handler, server, mcp: `${server.url}/mcp` };
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { ...POST_HEADERS, ...headers }, body: JSON.stringify(body) });
}

describe('the cluster link between two edges', () => {
  let a: Instance;
  let b: Instance;
  before(async () => {
    a = await instance('gw-a');
    b = await instance('gw-b');
    for (const one of [a, b]) {
      one.directory.places.set('gw-a', { up: true, url: a.server.url });
      one.directory.places.set('gw-b', { up: true, url: b.server.url });
    }
  });
  after(async () => {
    for (const one of [a, b]) {
      await one.handler.close();
      await one.server.close();
      one.link.close();
    }
  });

  async function sessionOn(where: Instance): Promise<string> {
    const opened = await post(where.mcp, initializeBody());
    const id = opened.headers.get('mcp-session-id');
    await opened.body?.cancel();
    assert.ok(id);
    assert.equal(ownerOfSessionId(id), where.directory.self, 'the session id names the instance that opened it');
    return id;
  }

  it("a session opened on A serves a call posted to B: forwarded, its stream relayed as it is written", async () => {
    const session = await sessionOn(a);
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const response = await post(b.mcp, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'via B' } } }, headers);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
    const messages = messagesOf(await readSse(response).rest());
    assert.deepEqual(messages.at(-1), { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'via B' }] } });
    // DELETE through B ends it on A.
    assert.equal((await fetch(b.mcp, { method: 'DELETE', headers })).status, 200);
    assert.equal((await post(a.mcp, { jsonrpc: '2.0', id: 3, method: 'ping' }, headers)).status, 404);
  });

  it('an owner recorded down, or found gone after a failed forward, gives 404; one up but out of reach gives 503', async () => {
    const session = await sessionOn(a);
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const ping = { jsonrpc: '2.0', id: 4, method: 'ping' };
    b.directory.places.set('gw-a', { up: false });
    assert.equal((await post(b.mcp, ping, headers)).status, 404);
    b.directory.places.set('gw-a', { up: true, url: 'http://127.0.0.1:9' });
    const unreachable = await post(b.mcp, ping, headers);
    assert.equal(unreachable.status, 503);
    assert.equal(unreachable.headers.get('retry-after'), '1');
    b.directory.gone.add('gw-a');
    assert.equal((await post(b.mcp, ping, headers)).status, 404);
    b.directory.gone.delete('gw-a');
    b.directory.places.set('gw-a', { up: true, url: a.server.url });
    assert.equal((await post(b.mcp, ping, headers)).status, 200);
  });

  it('a request bearing a cluster signature that does not verify is refused with 401, whatever it names', async () => {
    const forged = await post(a.mcp, initializeBody(), { [CLUSTER_HEADER]: `v1.Z3ctYg.${Date.now()}.${'A'.repeat(43)}` });
    assert.equal(forged.status, 401);
    assert.equal(((await forged.json()) as { error: { code: number } }).error.code, -32600);
  });

  it('draining: a new session is handed to the other instance, an idle one is closed (404), a DELETE still works', async () => {
    const idle = await sessionOn(b);
    const deleting = await sessionOn(b);
    b.handler.drain();
    const handed = await post(b.mcp, initializeBody());
    assert.equal(handed.status, 200);
    assert.equal(ownerOfSessionId(handed.headers.get('mcp-session-id') ?? ''), 'gw-a', 'the new session is opened on A');
    await handed.body?.cancel();
    const afterDrain = await post(b.mcp, { jsonrpc: '2.0', id: 5, method: 'ping' }, { 'mcp-session-id': idle, 'mcp-protocol-version': '2025-11-25' });
    assert.equal(afterDrain.status, 404);
    assert.equal((await fetch(b.mcp, { method: 'DELETE', headers: { 'mcp-session-id': deleting, 'mcp-protocol-version': '2025-11-25' } })).status, 200);
  });
});
