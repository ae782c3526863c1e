/** @module The params a request goes out with: the caller's, plus the envelope and our progress token when there are any. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { envelopeMeta } from '../protocol/request-envelope.js';
import type { RequestEnvelope } from '../protocol/request-envelope.js';
import { outgoingParams } from './request-params.js';

const envelope: RequestEnvelope = { protocolVersion: '2026-07-28', clientCapabilities: {} };

test('without envelope or token the params go as they are, absent ones too', () => {
  const params = { name: 'x' };
  assert.equal(outgoingParams(params, undefined, undefined), params);
  assert.equal(outgoingParams(undefined, undefined, undefined), undefined);
});

test('the progress token joins the _meta the caller sent', () => {
  assert.deepEqual(outgoingParams({ name: 'x', _meta: { traceparent: 't' } }, undefined, 7), { name: 'x', _meta: { traceparent: 't', progressToken: 7 } });
  assert.deepEqual(outgoingParams(undefined, undefined, 3), { _meta: { progressToken: 3 } });
});

test("the envelope and the token go together into _meta, the caller's params kept", () => {
  const out = outgoingParams({ name: 'x' }, envelope, 2);
  assert.deepEqual(out, { name: 'x', _meta: { ...envelopeMeta(envelope), progressToken: 2 } });
  assert.deepEqual(outgoingParams(undefined, envelope, undefined), { _meta: envelopeMeta(envelope) });
});
