/**
 * @module The contract every HostPort passes, whatever the host's era (as the stores share theirs): a question put
 * during a call reaches the host under its key and as given, a withdrawn one is no longer held, notifications keep to
 * their stream, and a port that cannot reach its host outside a call refuses a question there.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { JsonObject, JsonRpcId, JsonRpcNotification } from '../../protocol/jsonrpc.js';
import type { HostPort } from '../host-port.js';

/** One host behind its port, as a test drives and observes it. */
export interface HostPortHarness {
  port: HostPort;
  /** The profile the host declared (revision and capabilities). */
  declared: { protocolVersion: string; capabilities: JsonObject };
  /** Opens a call of the host during which it can be asked; its id is what the port is told as `call`. */
  openCall(): JsonRpcId;
  /** What the host holds of call `call` once the port delivered what it was given: each key with the question as the host saw it. */
  held(call: JsonRpcId): Promise<Map<string, { method: string; params?: JsonObject }>>;
  /** Notifications the host got on the stream of call `call`. */
  notifiedOn(call: JsonRpcId): JsonRpcNotification[];
  /** Notifications the host got outside any call. */
  notifiedOutside(): JsonRpcNotification[];
}

const FORM: JsonObject = { mode: 'form', message: 'Restart?', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } };
const REGION: JsonObject = { mode: 'form', message: 'Which region?', requestedSchema: { type: 'object', properties: { region: { type: 'string' } }, required: ['region'] } };

/** Registers the contract's tests for one adapter; `make` gives a fresh host for each. */
export function hostPortContract(name: string, make: () => HostPortHarness | Promise<HostPortHarness>): void {
  test(`${name}: the profile is what the host declared; delivery says how questions reach it`, async () => {
    const host = await make();
    const profile = host.port.profile();
    assert.deepEqual(profile && { protocolVersion: profile.protocolVersion, capabilities: profile.capabilities }, host.declared);
    assert.ok(host.port.delivery === 'request' || host.port.delivery === 'input_required');
    assert.equal(host.port.closed, false);
  });

  test(`${name}: a question put during a call reaches the host under its key, as given`, async () => {
    const host = await make();
    const call = host.openCall();
    assert.equal(host.port.ask({ key: 'sb-1', method: 'elicitation/create', params: FORM }, call), undefined);
    assert.deepEqual([...(await host.held(call))], [['sb-1', { method: 'elicitation/create', params: FORM }]]);
  });

  test(`${name}: two questions of one call are both held; a withdrawn one no longer is`, async () => {
    const host = await make();
    const call = host.openCall();
    const other = host.openCall();
    host.port.ask({ key: 'sb-1', method: 'elicitation/create', params: FORM }, call);
    host.port.ask({ key: 'sb-2', method: 'elicitation/create', params: REGION }, call);
    host.port.ask({ key: 'sb-3', method: 'roots/list' }, other);
    host.port.withdraw('sb-1', 'the question expired', call);
    assert.deepEqual([...(await host.held(call)).keys()], ['sb-2']);
    assert.deepEqual([...(await host.held(other))], [['sb-3', { method: 'roots/list' }]], 'each call holds its own');
  });

  test(`${name}: a notification keeps to its stream: the call's, or outside any call`, async () => {
    const host = await make();
    const call = host.openCall();
    const other = host.openCall();
    const progress: JsonRpcNotification = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1 } };
    const changed: JsonRpcNotification = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };
    host.port.notify(progress, call);
    host.port.notify(changed);
    assert.deepEqual(host.notifiedOn(call), [progress]);
    assert.deepEqual(host.notifiedOn(other), []);
    assert.deepEqual(host.notifiedOutside(), [changed]);
  });

  test(`${name}: a port that cannot reach its host outside a call refuses a question there`, async () => {
    const host = await make();
    if (host.port.reachableOutsideCalls()) {
      assert.equal(host.port.ask({ key: 'sb-1', method: 'roots/list' }, undefined), undefined, 'delivered outside any call');
      return;
    }
    const refused = host.port.ask({ key: 'sb-1', method: 'roots/list' }, undefined);
    assert.ok(refused, 'refused');
    assert.equal(typeof refused.code, 'number');
    assert.match(refused.message, /roots\/list/);
  });
}
