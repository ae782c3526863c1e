/** @module Tests that what one host sends fails that host's request only: an upstream is marked down by its own failures alone. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { JsonObject, JsonRpcMessage } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import type { Transport } from '../upstream/transport/transport.js';
import { createGateway } from './gateway.js';
import { silentLogger } from '../core/log.js';
import { fakeUpstreamFactory } from '../upstream/testing/fake-upstream.js';
import { config, connectHost, Host, spec } from './testing/gateway-doubles.js';
import { UpstreamSession } from '../upstream/session.js';
import { GatewayError } from '../protocol/gateway-errors.js';

/** A clientInfo whose `extra` nests `levels` deep. */
function deepInfo(levels: number): JsonObject {
  let value: JsonObject = { leaf: true };
  for (let i = 0; i < levels; i += 1) value = { x: value };
  return { name: 'deep-host', version: '1', extra: value };
}

/** Makes a transport encode every message as JSON on the way out, as the real transports do. */
function encoding(transport: Transport): Transport {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    JSON.stringify(message);
    return send(message, options);
  };
  return transport;
}

test("a host's deeply nested clientInfo fails nobody: the upstream stays up and well-behaved hosts keep their tools", async () => {
  const up = fakeUpstreamFactory({ restart_service: () => ({ content: [{ type: 'text', text: 'ok' }] }) });
  const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => encoding(up.open()) });
  await gateway.ready;
  const deep = new Host();
  deep.session = gateway.openSession(deep.channel);
  await deep.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: deepInfo(20_000) });
  await deep.request('tools/call', { name: 'restart_service', arguments: {} }); // opens its own upstream session
  const seen = up.servers.map((server) => server.initializeParams?.clientInfo).find((info) => isObject(info) && info.name === 'deep-host');
  assert.deepEqual(seen, { name: 'deep-host', version: '1' }, 'the upstream gets the schema fields of clientInfo only');
  assert.deepEqual(gateway.health().upstreams.map((u) => [u.name, u.state]), [['desk', 'up']]);
  const good = await connectHost(gateway);
  const call = await good.request('tools/call', { name: 'restart_service', arguments: {} });
  assert.ok('result' in call, JSON.stringify(call));
  await gateway.close();
});

test("an upstream that refuses one host's initialize is not marked down: that host gets the refusal, the others are served", async () => {
  const up = fakeUpstreamFactory({ restart_service: () => ({ content: [{ type: 'text', text: 'ok' }] }) }, {
    refuseInitialize: (params) => (params?.clientInfo as JsonObject | undefined)?.name === 'picky' ? { code: -32602, message: 'clientInfo.name is taken' } : undefined,
  });
  const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => up.open() });
  await gateway.ready;
  const picky = new Host();
  picky.session = gateway.openSession(picky.channel);
  await picky.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'picky', version: '1' } });
  const refused = await picky.request('tools/call', { name: 'restart_service', arguments: {} });
  assert.ok('error' in refused, JSON.stringify(refused));
  assert.deepEqual(gateway.health().upstreams.map((u) => [u.name, u.state]), [['desk', 'up']]);
  const good = await connectHost(gateway);
  const call = await good.request('tools/call', { name: 'restart_service', arguments: {} });
  assert.ok('result' in call, JSON.stringify(call));
  await gateway.close();
});

test('a message the gateway cannot encode is GW_ERR_INVALID_PARAMS, not an unavailable upstream', async () => {
  const tooDeep: Transport = {
    start: async () => undefined,
    send: async (_message: JsonRpcMessage) => {
      throw new RangeError('Maximum call stack size exceeded');
    },
    close: async () => undefined,
  };
  const session = new UpstreamSession(spec('desk'), tooDeep, { onRequest() {}, onNotification() {}, onClose() {} }, silentLogger);
  const error = await session.request('tools/call', { name: 't' }).then(
    () => assert.fail('the request should fail'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof GatewayError, String(error));
  assert.equal(error.code, 'GW_ERR_INVALID_PARAMS');
});

test('tools/call and prompts/get whose arguments are not an object (prompts: of strings) are -32602 at the gateway, never forwarded', async () => {
  const up = fakeUpstreamFactory({ echo: () => ({ content: [{ type: 'text', text: 'ok' }] }) });
  const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => up.open() });
  await gateway.ready;
  const host = await connectHost(gateway);
  for (const args of [[1, 2], 'text', 7, null]) {
    const answer = await host.request('tools/call', { name: 'echo', arguments: args });
    assert.equal('error' in answer ? answer.error.code : undefined, -32602, JSON.stringify(answer));
    assert.match('error' in answer ? answer.error.message : '', /arguments must be an object/);
  }
  for (const args of [['a'], { a: 1 }]) {
    const answer = await host.request('prompts/get', { name: 'any', arguments: args });
    assert.equal('error' in answer ? answer.error.code : undefined, -32602, JSON.stringify(answer));
    assert.match('error' in answer ? answer.error.message : '', /arguments/);
  }
  const fine = await host.request('tools/call', { name: 'echo', arguments: {} });
  assert.ok('result' in fine, JSON.stringify(fine));
  const calls = up.servers.flatMap((server) => server.received).filter((m) => 'method' in m && m.method === 'tools/call');
  assert.equal(calls.length, 1, 'only the well-formed call reached the upstream');
  await gateway.close();
});
