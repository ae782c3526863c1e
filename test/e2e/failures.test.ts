/** @module e2e/failures.test: an upstream crash mid-call, a broken upstream next to a working one, and malformed host input. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { type RunningGateway, startGateway } from './harness/gateway.js';
import { RawHost } from './harness/raw-host.js';
import { answers, pidOf, toolNames } from './harness/tool-results.js';
import { labStdio } from './harness/upstreams.js';

const MISSING_COMMAND = '/nonexistent/switchboard-e2e/no-such-upstream';
const MAX_BODY_BYTES = 64 * 1024;

describe('failures through switchboard serve (lab upstream + one that cannot start)', () => {
  let gateway: RunningGateway;
  before(async () => {
    gateway = await startGateway({
      upstreams: { lab: labStdio(), broken: { command: MISSING_COMMAND } },
      http: { maxBodySize: MAX_BODY_BYTES },
    });
  });
  after(() => gateway?.stop());

  async function connect(t: { after(fn: () => Promise<void>): void }): Promise<RawHost> {
    const host = await RawHost.connect(gateway.url);
    t.after(() => host.close());
    return host;
  }

  test('an upstream that crashes mid-call gives a JSON-RPC error within 1 s; the next call gets a new process', async (t) => {
    const host = await connect(t);
    const before = pidOf(await host.call(1, 'tools/call', { name: 'whoami' }));

    const started = performance.now();
    const crash = await host.callTool(2, 'crash');
    const failed = await crash.until(answers(2), 1_000);
    const elapsedMs = performance.now() - started;
    assert.ok(elapsedMs < 1_000, `took ${Math.round(elapsedMs)} ms`);
    assert.equal(failed.result, undefined);
    assert.equal(failed.error?.code, -32000, JSON.stringify(failed));

    const afterCrash = pidOf(await host.call(3, 'tools/call', { name: 'whoami' }));
    assert.notEqual(afterCrash, before, 'a new upstream process serves the next call');
  });

  test('a broken upstream is reported down with its reason while the other one serves', async (t) => {
    const { status, body } = await gateway.health();
    assert.equal(status, 200);
    const broken = body.upstreams.find((upstream) => upstream.name === 'broken');
    const lab = body.upstreams.find((upstream) => upstream.name === 'lab');
    assert.equal(lab?.state, 'up');
    assert.equal(broken?.state, 'down');
    assert.equal(broken?.transport, 'stdio');
    assert.match(broken?.error ?? '', /ENOENT/, `reason: ${broken?.error}`);

    const host = await connect(t);
    const names = toolNames(await host.call(1, 'tools/list'));
    assert.deepEqual(names.sort(), ['ask', 'ask_then_withdraw', 'count', 'crash', 'elicit_defaults', 'elicit_shape', 'elicit_url', 'require_url', 'toggle_extra', 'was_cancelled', 'whoami']);
    assert.equal(typeof pidOf(await host.call(2, 'tools/call', { name: 'whoami' })), 'number');
  });

  const BAD_BODIES: readonly { name: string; body: string; status: number; code: number }[] = [
    { name: 'malformed JSON', body: '{"jsonrpc": "2.0", "id": 1, "method": ', status: 400, code: -32700 },
    { name: 'a JSON-RPC version other than 2.0', body: '{"jsonrpc":"1.0","id":1,"method":"tools/list"}', status: 400, code: -32600 },
    { name: 'an id with neither method nor result', body: '{"jsonrpc":"2.0","id":1}', status: 400, code: -32600 },
    { name: 'a JSON value that is not an object', body: '42', status: 400, code: -32600 },
    { name: 'an oversized body', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(MAX_BODY_BYTES) } }), status: 413, code: -32600 },
  ];

  for (const bad of BAD_BODIES) {
    test(`${bad.name} gets HTTP ${bad.status} with JSON-RPC ${bad.code}, and the gateway keeps serving`, async (t) => {
      const host = await connect(t);
      const outcome = await host.postText(bad.body);
      assert.equal(outcome.status, bad.status, outcome.text);
      assert.match(outcome.contentType ?? '', /^application\/json/);
      assert.equal(outcome.json?.jsonrpc, '2.0');
      assert.equal(outcome.json?.error?.code, bad.code, outcome.text);

      // Both this session and a fresh one still work.
      assert.ok((await host.call(2, 'ping')).result);
      const other = await connect(t);
      assert.ok((await other.call(1, 'ping')).result);
    });
  }

  test('an unknown method is a JSON-RPC -32601 error for that request only', async (t) => {
    const host = await connect(t);
    const response = await host.call(5, 'no/such-method');
    assert.equal(response.error?.code, -32601, JSON.stringify(response));
    assert.ok((await host.call(6, 'ping')).result);
  });

  const BAD_HEADERS: readonly { name: string; headers: Record<string, string>; status: number }[] = [
    { name: 'no Mcp-Session-Id', headers: { 'mcp-session-id': '' }, status: 400 },
    { name: 'an unknown Mcp-Session-Id', headers: { 'mcp-session-id': 'no-such-session' }, status: 404 },
    { name: 'a Content-Type other than JSON', headers: { 'content-type': 'text/plain' }, status: 415 },
    { name: 'an Accept without text/event-stream', headers: { accept: 'application/json' }, status: 406 },
    { name: 'an unsupported MCP-Protocol-Version', headers: { 'mcp-protocol-version': '1999-01-01' }, status: 400 },
  ];

  for (const bad of BAD_HEADERS) {
    test(`a POST with ${bad.name} gets HTTP ${bad.status} and a JSON-RPC error`, async (t) => {
      const host = await connect(t);
      const headers = { ...host.headers(), ...bad.headers };
      if (headers['mcp-session-id'] === '') delete (headers as Partial<typeof headers>)['mcp-session-id'];
      const response = await fetch(gateway.url, { method: 'POST', headers, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
      const text = await response.text();
      assert.equal(response.status, bad.status, text);
      const body = JSON.parse(text) as { jsonrpc?: string; error?: { code?: unknown } };
      assert.equal(body.jsonrpc, '2.0');
      assert.equal(typeof body.error?.code, 'number');
      assert.ok((await host.call(2, 'ping')).result, 'the session still works');
    });
  }
});
