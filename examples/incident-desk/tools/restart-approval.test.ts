/** @module incident-desk/tools/restart-approval.test: the approval question per revision, and how answers are read. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { VECTOR_ELICIT_PARAMS } from '../testing/restart-vector.js';
import { readRestartDecision, restartApprovalInputParams, restartApprovalParams } from './restart-approval.js';

test('at 2025-11-25 the params equal the vector, key for key', () => {
  assert.deepEqual(restartApprovalParams('payments-api', '2025-11-25'), VECTOR_ELICIT_PARAMS);
});

test('below 2025-11-25 the params leave out mode and keep everything else', () => {
  const { mode: _mode, ...withoutMode } = VECTOR_ELICIT_PARAMS;
  assert.deepEqual(restartApprovalParams('payments-api', '2025-06-18'), withoutMode);
});

test('as a 2026-07-28 input request the params are the vector\'s without _meta (embedded params are bare)', () => {
  const { _meta: _unused, ...withoutMeta } = VECTOR_ELICIT_PARAMS;
  assert.deepEqual(restartApprovalInputParams('payments-api'), withoutMeta);
  assert.equal('_meta' in restartApprovalInputParams('payments-api'), false);
  assert.equal(restartApprovalInputParams('auth-gateway').message, 'Restart auth-gateway? This drops in-flight requests.');
});

test('only an accept with confirm: true and a ticket approves', () => {
  assert.deepEqual(readRestartDecision({ action: 'accept', content: { confirm: true, ticket: ' CHG-2291 ' } }), { approved: true, ticket: 'CHG-2291' });
  assert.deepEqual(readRestartDecision({ action: 'accept', content: { confirm: true, ticket: '' } }), { approved: false, reason: 'no change ticket given' });
  assert.deepEqual(readRestartDecision({ action: 'accept', content: { confirm: 'yes', ticket: 'CHG-1' } }), { approved: false, reason: 'restart not confirmed' });
  assert.deepEqual(readRestartDecision({ action: 'accept' }), { approved: false, reason: 'restart not confirmed' });
  assert.deepEqual(readRestartDecision({ action: 'decline' }), { approved: false, reason: 'approval declined' });
  assert.deepEqual(readRestartDecision({ action: 'cancel' }), { approved: false, reason: 'approval cancelled' });
  assert.deepEqual(readRestartDecision({ action: 'maybe' }), { approved: false, reason: 'unexpected answer "maybe"' });
});
