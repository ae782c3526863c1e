/** @module Tests of upstream backoff bookkeeping. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { UpstreamSpec } from '../config/types.js';
import { UpstreamStatus } from './upstream-status.js';

const spec = { name: 'desk', kind: 'stdio', command: 'x', args: [], env: {} } as unknown as UpstreamSpec;

test('backoff doubles up to the cap and resets on success', () => {
  const status = new UpstreamStatus(spec, { initialDelayMs: 100, maxDelayMs: 350 });
  assert.equal(status.tried, false);
  assert.equal(status.failed('boom', 0), 100);
  assert.equal(status.failed('boom', 0), 200);
  assert.equal(status.failed('boom', 0), 350);
  assert.equal(status.report.state, 'down');
  assert.equal(status.report.error, 'boom');
  assert.equal(status.backoffRemaining(100), 250);
  status.succeeded({ protocolVersion: '2025-11-25' });
  assert.equal(status.report.state, 'up');
  assert.equal(status.backoffRemaining(0), 0);
  assert.equal(status.failed('again', 0), 100);
});
