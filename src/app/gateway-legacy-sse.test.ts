/** @module The legacy HTTP+SSE host edge (`/sse` + `/messages`) in front of a real gateway: what it refuses on a session. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createGateway } from './gateway.js';
import { silentLogger } from '../core/log.js';
import { fakeUpstreamFactory } from '../upstream/testing/fake-upstream.js';
import { config, spec } from './testing/gateway-doubles.js';
import { createMcpHttpHandler } from '../edges/http/mcp-handler.js';
import { BASE, initializeBody, readSse } from '../edges/http/testing/sse.js';
import { testHttpSettings } from '../edges/http/testing/http-settings.js';

test('a request that reuses the id of one in flight is refused with 400 -32600; the older call still gets its answer', async (t) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const up = fakeUpstreamFactory({ hold: async () => (await held, { content: [{ type: 'text', text: 'done' }] }), echo: () => ({ content: [{ type: 'text', text: 'echo' }] }) });
  const cfg = config([spec('desk')]);
  const gateway = createGateway(cfg, { logger: silentLogger, openTransport: () => up.open() });
  const handler = createMcpHttpHandler(gateway, testHttpSettings(cfg.http));
  t.after(async () => {
    await handler.close();
    await gateway.close();
  });
  const reader = readSse(await handler.handle(new Request(`${BASE}/sse`, { headers: { accept: 'text/event-stream' } })));
  const path = String((await reader.next())?.data);
  const post = (message: unknown) => handler.handle(new Request(`${BASE}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) }));
  assert.equal((await post(initializeBody(0, '2024-11-05'))).status, 202);
  assert.equal((await reader.nextMessage())?.id, 0);
  assert.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);

  assert.equal((await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hold', arguments: {} } })).status, 202);
  const clash = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: {} } });
  assert.equal(clash.status, 400);
  const body = (await clash.json()) as { id: unknown; error: { code: number; message: string } };
  assert.deepEqual([body.id, body.error.code], [1, -32600]);
  assert.match(body.error.message, /already in flight/);

  release();
  const answer = await reader.nextMessage();
  assert.equal(answer?.id, 1);
  assert.deepEqual((answer?.result as { content: unknown }).content, [{ type: 'text', text: 'done' }]);
});
