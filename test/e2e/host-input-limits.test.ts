/**
 * @module e2e/host-input-limits.test: issue 11 items 1 and 7 on the wire. A host's deeply nested JSON is refused at
 * parse (400, -32600 naming the limit) and never takes the upstream down for other hosts; bad `completion/complete`
 * params are -32602 from the gateway, not the upstream's -32603.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { type RunningGateway, startGateway, writeConfigFile } from './harness/gateway.js';
import { ModernStdioHost } from './harness/modern-host.js';
import type { WireMessage } from './harness/sse-reader.js';
import { eventually } from './harness/wait.js';
import { ACCEPT_BOTH, RawHost } from './harness/raw-host.js';
import { incidentDeskStdio } from './harness/upstreams.js';

/** `{"x":{"x":…1…}}`, `levels` objects deep, as text (never built as a value: it would be too deep to stringify). */
function nestedText(levels: number): string {
  return `${'{"x":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

async function postInitialize(url: string, paramsText: string): Promise<{ status: number; text: string; sessionId: string | null }> {
  const body = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":${paramsText}}`;
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH }, body });
  return { status: response.status, text: await response.text(), sessionId: response.headers.get('mcp-session-id') };
}

describe('a host that sends deeply nested JSON or bad completion params', { timeout: 120_000 }, () => {
  let gateway: RunningGateway;

  before(async () => {
    gateway = await startGateway({ upstreams: { desk: incidentDeskStdio() } });
  });
  after(() => gateway.stop());

  test('a clientInfo nested 20,000 levels is refused at initialize, and the upstream stays up for a well-behaved host', async () => {
    const params = `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"deep","version":"1","extra":${nestedText(20_000)}}}`;
    const deep = await postInitialize(gateway.url, params);
    if (deep.sessionId !== null) {
      // Today's gateway took it: open that host's upstream session, as its first request would.
      const headers = { 'content-type': 'application/json', accept: ACCEPT_BOTH, 'mcp-session-id': deep.sessionId, 'mcp-protocol-version': '2025-11-25' };
      await fetch(gateway.url, { method: 'POST', headers, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' }).then((r) => r.text());
      await fetch(gateway.url, { method: 'POST', headers, body: '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' }).then((r) => r.text());
    }
    const good = await RawHost.connect(gateway.url);
    const list = await good.call(1, 'tools/list');
    await good.close();
    assert.deepEqual(((list.result?.tools ?? []) as { name: string }[]).map((tool) => tool.name).sort(), ['restart_service', 'summarize_incident']);
    const health = await gateway.health();
    assert.deepEqual(health.body.upstreams.map((u) => [u.name, u.state]), [['desk', 'up']]);
    assert.equal(deep.status, 400, deep.text);
    const error = (JSON.parse(deep.text) as { error: { code: number; message: string } }).error;
    assert.equal(error.code, -32600);
    assert.match(error.message, /deeper than 64 levels/);
    assert.doesNotMatch(gateway.logs(), /Maximum call stack|RangeError/);
  });

  test('capabilities.experimental nested 5,000 levels is HTTP 400, not 500', async () => {
    const params = `{"protocolVersion":"2025-11-25","capabilities":{"experimental":${nestedText(5_000)}},"clientInfo":{"name":"deep","version":"1"}}`;
    const deep = await postInitialize(gateway.url, params);
    assert.equal(deep.status, 400, deep.text);
    assert.equal((JSON.parse(deep.text) as { error: { code: number } }).error.code, -32600);
  });

  test('completion/complete with a bad argument or context is -32602 from the gateway; a good one is answered', async () => {
    const host = await RawHost.connect(gateway.url);
    const ref = { type: 'ref/prompt', name: 'triage_incident' };
    const bad: Record<string, unknown>[] = [
      { ref },
      { ref, argument: 'id' },
      { ref, argument: { value: 'INC' } },
      { ref, argument: { name: 'id' } },
      { ref, argument: { name: 7, value: 'INC' } },
      { ref, argument: { name: 'id', value: { deep: true } } },
      { ref, argument: { name: 'id', value: 'INC' }, context: 'all' },
      { ref, argument: { name: 'id', value: 'INC' }, context: { arguments: ['a'] } },
      { ref, argument: { name: 'id', value: 'INC' }, context: { arguments: { service: 3 } } },
    ];
    let id = 10;
    for (const params of bad) {
      const reply = await host.call(id++, 'completion/complete', params);
      assert.equal(reply.error?.code, -32602, `${JSON.stringify(params)} -> ${JSON.stringify(reply)}`);
      assert.equal((reply.error?.data as { reason?: string } | undefined)?.reason, 'GW_ERR_INVALID_PARAMS', JSON.stringify(reply));
    }
    const good = await host.call(id++, 'completion/complete', { ref, argument: { name: 'id', value: 'INC-1043' }, context: { arguments: { service: 'payments-api' } } });
    assert.deepEqual((good.result?.completion as { values: string[] } | undefined)?.values, ['INC-1043'], JSON.stringify(good));
    await host.close();
  });
});

describe('http.maxJsonDepth set in the config', { timeout: 120_000 }, () => {
  const TOKEN = 'depth-operator-token-3kT9wQz';
  /** Five levels: the body, params, capabilities, experimental, x. */
  const FIVE_DEEP = '{"protocolVersion":"2025-11-25","capabilities":{"experimental":{"x":{}}},"clientInfo":{"name":"h","version":"1"}}';

  test('serve: /mcp and the operator API refuse what nests deeper than the configured limit, and take what fits', async (t) => {
    const gateway = await startGateway({ upstreams: { desk: incidentDeskStdio() }, http: { maxJsonDepth: 4 }, console: { token: TOKEN } });
    t.after(() => gateway.stop());
    const deep = await postInitialize(gateway.url, FIVE_DEEP);
    assert.equal(deep.status, 400, deep.text);
    assert.match((JSON.parse(deep.text) as { error: { message: string } }).error.message, /deeper than 4 levels/);
    const fits = await postInitialize(gateway.url, '{"protocolVersion":"2025-11-25","capabilities":{"experimental":{}},"clientInfo":{"name":"h","version":"1"}}');
    assert.equal(fits.status, 200, fits.text);
    const answer = await fetch(new URL('/api/questions/q-1/answer', gateway.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: '{"action":"accept","content":{"a":{"b":{"c":{}}}}}',
    });
    const body = (await answer.json()) as { error: { code: string; message: string } };
    assert.equal(answer.status, 400);
    assert.equal(body.error.code, 'INVALID_BODY');
    assert.match(body.error.message, /deeper than 4 levels/);
  });

  test('stdio: a line deeper than the configured limit gets -32600 naming it', async (t) => {
    const config = await writeConfigFile({ upstreams: { desk: incidentDeskStdio() }, http: { maxJsonDepth: 4 } });
    t.after(() => config.remove());
    const host = ModernStdioHost.start(config.path);
    t.after(() => host.close());
    host.writeLine('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":{"b":{"c":{}}}}}');
    host.writeLine('{"jsonrpc":"2.0","id":2,"method":"ping","params":{"a":{"b":{}}}}');
    const answers = () => host.lines.filter((entry) => entry.direction === 'gateway->host').map((entry) => JSON.parse(entry.line) as WireMessage);
    assert.ok(await eventually(() => answers().length >= 2, 20_000), host.transcript());
    const [refused, fits] = answers();
    assert.equal(refused?.error?.code, -32600, host.transcript());
    assert.match(refused?.error?.message ?? '', /deeper than 4 levels/);
    assert.deepEqual(fits, { jsonrpc: '2.0', id: 2, result: {} }, 'four levels fit');
  });
});
