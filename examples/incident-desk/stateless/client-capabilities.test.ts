/** @module incident-desk/stateless/client-capabilities.test: reading what one 2026-07-28 request declared. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { ServerContext } from '@modelcontextprotocol/server';

import { canElicitForm, canSample, declaredCapabilities } from './client-capabilities.js';

function ctxWith(envelope: unknown): ServerContext {
  return { mcpReq: { envelope } } as unknown as ServerContext;
}

test('the capabilities come from the envelope of this request; none means {}', () => {
  const capabilities = { sampling: {} };
  assert.deepEqual(declaredCapabilities(ctxWith({ 'io.modelcontextprotocol/clientCapabilities': capabilities })), capabilities);
  assert.deepEqual(declaredCapabilities(ctxWith(undefined)), {});
  assert.deepEqual(declaredCapabilities(ctxWith({ 'io.modelcontextprotocol/clientCapabilities': 'all' })), {});
});

test('form elicitation: elicitation.form, or a bare elicitation {}; URL-only or none is not enough', () => {
  assert.equal(canElicitForm({ elicitation: {} }), true);
  assert.equal(canElicitForm({ elicitation: { form: {} } }), true);
  assert.equal(canElicitForm({ elicitation: { form: {}, url: {} } }), true);
  assert.equal(canElicitForm({ elicitation: { url: {} } }), false);
  assert.equal(canElicitForm({ elicitation: true }), false);
  assert.equal(canElicitForm({ sampling: {} }), false);
});

test('sampling: a sampling object', () => {
  assert.equal(canSample({ sampling: {} }), true);
  assert.equal(canSample({ sampling: { tools: {} } }), true);
  assert.equal(canSample({ elicitation: {} }), false);
});
