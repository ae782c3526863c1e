/** @module Tests of the capability arithmetic. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { capabilityForServerRequest, gatewayServerCapabilities, upstreamClientCapabilities } from './capabilities.js';

test('an upstream is promised only what the host declared, and only what can be relayed', () => {
  assert.deepEqual(upstreamClientCapabilities({}), {});
  assert.deepEqual(upstreamClientCapabilities(undefined), {});
  assert.deepEqual(
    upstreamClientCapabilities({ sampling: {}, elicitation: { form: {} }, roots: { listChanged: true }, tasks: { list: {} }, experimental: { x: {} } }),
    { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } },
  );
  assert.deepEqual(upstreamClientCapabilities({ elicitation: {} }), { elicitation: {} });
});

test('each server request names the capability it needs', () => {
  assert.equal(capabilityForServerRequest('elicitation/create'), 'elicitation');
  assert.equal(capabilityForServerRequest('sampling/createMessage'), 'sampling');
  assert.equal(capabilityForServerRequest('roots/list'), 'roots');
  assert.equal(capabilityForServerRequest('ping'), undefined);
});

test('the gateway offers the union of its upstreams, always with listChanged', () => {
  assert.deepEqual(gatewayServerCapabilities([{ tools: {} }, { resources: { subscribe: true }, logging: {} }]), {
    tools: { listChanged: true },
    resources: { listChanged: true, subscribe: true },
    logging: {},
  });
  assert.ok(gatewayServerCapabilities([]).tools);
});
