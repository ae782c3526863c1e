/** @module A 2026-07-28 principal's session against the HostPort contract: questions join the round of their call, offered as input_required. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { CountingIds } from '../../core/clock.js';
import { eventually } from '../../core/testing/deadlines.js';
import { hostPortContract } from '../../ports/testing/host-port-contract.js';
import type { JsonObject, JsonRpcId, JsonRpcNotification, JsonRpcResponse } from '../../protocol/jsonrpc.js';
import { LATEST_LEGACY_REVISION } from '../../protocol/revisions.js';
import type { HostInit } from '../../router/call-host.js';
import type { RoutedSession } from '../../router/routed-session.js';
import { ModernCall } from './modern-call.js';
import { PrincipalSession } from './principal-session.js';

const CAPABILITIES = { elicitation: { form: {} }, roots: {} };

/** The router's side, reduced to what the session reads of it: it takes the envelope's profile. */
function routedStub(): RoutedSession {
  const stub = {
    id: 'principal-1',
    closed: false,
    profile: undefined as HostInit | undefined,
    open(init: HostInit) {
      stub.profile = init;
    },
  };
  return stub as unknown as RoutedSession;
}

function modernHost(settleMs = 30) {
  const outside: JsonRpcNotification[] = [];
  const session = new PrincipalSession({
    key: 'k',
    principal: 'alice',
    envelope: { protocolVersion: '2026-07-28', clientCapabilities: CAPABILITIES, clientInfo: { name: 'host', version: '1' } },
    open: () => routedStub(),
    takeRound: async () => undefined,
    onBroadcast: (_from, message) => outside.push(message),
    now: () => 0,
    ids: new CountingIds(),
  });
  const sinks = new Map<JsonRpcId, { notes: JsonRpcNotification[]; responses: JsonRpcResponse[] }>();
  let calls = 0;
  return {
    port: session,
    declared: { protocolVersion: LATEST_LEGACY_REVISION, capabilities: CAPABILITIES },
    openCall: () => {
      const id = `m-${(calls += 1)}`;
      const sink = { notes: [] as JsonRpcNotification[], responses: [] as JsonRpcResponse[] };
      sinks.set(id, sink);
      const call = new ModernCall({
        internalId: id,
        method: 'tools/call',
        asks: true,
        exchange: { hostId: id, sink: { notify: (m) => sink.notes.push(m), respond: (m) => sink.responses.push(m) }, wantsLogs: true, progressToken: 'p' },
        owner: { settleMs, park: () => ({ handle: 'handle', deadlineMs: 60_000 }), cancelUpstream: () => undefined, ended: () => undefined, finish: (_method, result) => result },
      });
      session.calls.set(id, call);
      return id;
    },
    held: async (call: JsonRpcId) => {
      await new Promise((resolve) => setImmediate(resolve));
      const response = sinks.get(call)?.responses[0];
      const requests = response && 'result' in response ? (response.result.inputRequests as Record<string, { method: string; params?: JsonObject }>) : {};
      return new Map(Object.entries(requests));
    },
    notifiedOn: (call: JsonRpcId) => sinks.get(call)?.notes ?? [],
    notifiedOutside: () => outside,
  };
}

hostPortContract('2026-07-28 host', () => modernHost());

test('a round of questions that may be followed by more (a legacy upstream\'s burst) waits for them; any other is offered at the end of the turn', async () => {
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  const host = modernHost();
  const burst = host.openCall();
  host.port.ask({ key: 'sb-1', method: 'roots/list', more: true }, burst);
  await turn();
  assert.deepEqual([...(await host.held(burst)).keys()], [], 'not offered at the end of the turn: more may follow');
  host.port.ask({ key: 'sb-2', method: 'roots/list', more: true }, burst);
  await eventually(async () => (await host.held(burst)).size > 0, 'the burst offered');
  assert.deepEqual([...(await host.held(burst)).keys()], ['sb-1', 'sb-2'], 'one round for the burst');

  const single = host.openCall();
  host.port.ask({ key: 'sb-3', method: 'roots/list' }, single);
  await turn();
  assert.deepEqual([...(await host.held(single)).keys()], ['sb-3'], 'offered at once');
});

test('with no settle time (the default), a burst\'s round waits one more I/O turn for the rest of the burst, and no timer', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  const host = modernHost(0);
  const burst = host.openCall();
  host.port.ask({ key: 'sb-1', method: 'roots/list', more: true }, burst);
  // The next question of the burst arrives on the following I/O turn (the upstream wrote it a moment later).
  setImmediate(() => host.port.ask({ key: 'sb-2', method: 'roots/list', more: true }, burst));
  await turn();
  await turn();
  await turn();
  assert.deepEqual([...(await host.held(burst)).keys()], ['sb-1', 'sb-2'], 'one round for the burst, offered with no timer run');

  const lone = host.openCall();
  host.port.ask({ key: 'sb-3', method: 'roots/list', more: true }, lone);
  await turn();
  await turn();
  assert.deepEqual([...(await host.held(lone)).keys()], ['sb-3'], 'a lone question of a burst-capable upstream waits two turns, not a timer');
});
