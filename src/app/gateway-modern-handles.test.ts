/** @module Tests of refused `sb1.` handles of 2026-07-28 hosts: every way a retry's handle is refused (-32602, GW_ERR_REQUEST_STATE_REJECTED) touches nothing, and the parked call still resumes. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { JsonObject, JsonRpcResponse } from '../protocol/jsonrpc.js';
import type { ToolHandler } from '../upstream/testing/fake-upstream.js';
import { RESTART, REGION, ACCEPT, modern, serve, errorOf, textOf, inputRequired, assertRejected, reseal, payloadOf, flipAt, legacySetup, caller, answersOf, restart, callRestart, parked, resumesAfterwards } from './testing/modern-doubles.js';

// ---- rejected handles: -32602, and nothing touched --------------------------------------------------

test('pair 4: an invalid answer in a retry with a handle that does not open touches nothing', async () => {
  const { gateway, up } = legacySetup({ restart });
  const round = inputRequired(await serve(gateway, callRestart(1)).response());
  const [key] = round.keys as [string];
  const [prefix, payload, mac] = round.requestState.split('.') as [string, string, string];
  const tampered = `${prefix}.${payload}.${flipAt(mac, 3)}`;
  const bad = await serve(gateway, callRestart(2, { inputResponses: { [key]: { action: 'accept', content: { confirm: 'yes' } } }, requestState: tampered })).response();
  assert.equal((errorOf(bad).data as JsonObject).failure, 'bad-mac', JSON.stringify(errorOf(bad)));
  await resumesAfterwards(gateway, up, key, round.requestState);
  await gateway.close();
});

test('a tampered handle (a character of the payload or the MAC changed) is bad-mac; the parked call still resumes', async () => {
  const { gateway, up } = legacySetup({ restart });
  const { key, handle } = await parked(gateway);
  const [prefix, payload, mac] = handle.split('.') as [string, string, string];
  const inPayload = `${prefix}.${flipAt(payload, Math.floor(payload.length / 2))}.${mac}`;
  const inMac = `${prefix}.${payload}.${flipAt(mac, 10)}`;
  for (const tampered of [inPayload, inMac]) {
    const refused = await serve(gateway, callRestart('tampered', { inputResponses: { [key]: { action: 'decline' } }, requestState: tampered })).response();
    assertRejected(refused, 'bad-mac');
  }
  const garbage = await serve(gateway, callRestart('garbage', { inputResponses: { [key]: { action: 'decline' } }, requestState: 'sb1.not-a-handle' })).response();
  assertRejected(garbage, 'malformed');
  await resumesAfterwards(gateway, up, key, handle);
  await gateway.close();
});

test('an expired handle (authentic, same round id) is expired and leaves the ledger untouched; the genuine one still works', async () => {
  const { gateway, up, ring } = legacySetup({ restart });
  const { key, handle } = await parked(gateway);
  const expired = reseal(handle, ring, (payload) => {
    payload.iat = (payload.iat as number) - 120_000;
    payload.exp = (payload.iat as number) + 1000;
  });
  assert.equal(payloadOf(expired).id, payloadOf(handle).id, 'the same round');
  const refused = await serve(gateway, callRestart('late', { inputResponses: { [key]: { action: 'decline' } }, requestState: expired })).response();
  assertRejected(refused, 'expired');
  await resumesAfterwards(gateway, up, key, handle);
  await gateway.close();
});

test('a handle used once is replayed the second time; the next round\'s handle still works', async () => {
  const twice: ToolHandler = async (_call, server) => {
    const one = await server.ask('elicitation/create', RESTART);
    const two = await server.ask('elicitation/create', REGION);
    return { content: [{ type: 'text', text: JSON.stringify([one, two].map((a) => ('result' in a ? a.result : a))) }] };
  };
  const { gateway, up } = legacySetup({ twice });
  const call = (id: string, extra: JsonObject = {}) => modern(id, 'tools/call', { name: 'twice', arguments: {}, ...extra });
  const first = inputRequired(await serve(gateway, call('a')).response());
  const firstKey = first.keys[0] as string;
  const second = inputRequired(await serve(gateway, call('b', { inputResponses: { [firstKey]: ACCEPT }, requestState: first.requestState })).response());
  const secondKey = second.keys[0] as string;
  assert.notEqual(second.requestState, first.requestState);
  assert.equal(answersOf(caller(up)).length, 1);

  const replay = await serve(gateway, call('c', { inputResponses: { [firstKey]: { action: 'decline' } }, requestState: first.requestState })).response();
  assertRejected(replay, 'replayed');
  assert.equal(answersOf(caller(up)).length, 1, 'the replay reached nothing');

  const done = await serve(gateway, call('d', { inputResponses: { [secondKey]: { action: 'accept', content: { region: 'eu' } } }, requestState: second.requestState })).response();
  assert.equal(textOf(done), JSON.stringify([ACCEPT, { action: 'accept', content: { region: 'eu' } }]));
  const again = await serve(gateway, call('e', { inputResponses: { [secondKey]: { action: 'decline' } }, requestState: second.requestState })).response();
  assertRejected(again, 'replayed');
  await gateway.close();
});

test('two retries racing with the same handle: one resumes the call, the other is replayed; the upstream gets one answer', async () => {
  const { gateway, up } = legacySetup({ restart });
  const { key, handle } = await parked(gateway);
  const one = serve(gateway, callRestart('one', { inputResponses: { [key]: ACCEPT }, requestState: handle }));
  const two = serve(gateway, callRestart('two', { inputResponses: { [key]: { action: 'decline' } }, requestState: handle }));
  const responses = await Promise.all([one.response(), two.response()]);
  const won = responses.filter((r) => 'result' in r);
  const lost = responses.filter((r) => 'error' in r);
  assert.equal(won.length, 1, JSON.stringify(responses));
  assert.equal(lost.length, 1);
  assertRejected(lost[0] as JsonRpcResponse, 'replayed');
  assert.equal(answersOf(caller(up)).length, 1);
  await gateway.close();
});

test('a handle presented by another principal is wrong-principal; the owner\'s retry still works', async () => {
  const { gateway, up } = legacySetup({ restart });
  const { key, handle } = await parked(gateway);
  const stolen = serve(gateway, callRestart('mallory', { inputResponses: { [key]: { action: 'accept', content: { confirm: true, ticket: 'EVIL' } } }, requestState: handle }), 'mallory');
  assertRejected(await stolen.response(), 'wrong-principal');
  await resumesAfterwards(gateway, up, key, handle);
  await gateway.close();
});

test('a handle attached to other params is wrong-params; the original retry still works', async () => {
  const { gateway, up } = legacySetup({ restart });
  const { key, handle } = await parked(gateway);
  const other = modern('other', 'tools/call', { name: 'restart', arguments: { service: 'billing-api' }, inputResponses: { [key]: ACCEPT }, requestState: handle });
  assertRejected(await serve(gateway, other).response(), 'wrong-params');
  await resumesAfterwards(gateway, up, key, handle);
  await gateway.close();
});
