/** @module Tests of upstream backoff bookkeeping. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { UpstreamSpec } from '../config/types.js';
import { ManualClock } from '../core/clock.js';
import { UpstreamStatus } from './status.js';

const spec = { name: 'desk', kind: 'stdio', command: 'x', args: [], env: {} } as unknown as UpstreamSpec;

test('backoff doubles up to the cap and resets on success', () => {
  const clock = new ManualClock(0);
  const status = new UpstreamStatus(spec, { initialDelayMs: 100, maxDelayMs: 350 }, clock);
  assert.equal(status.tried, false);
  assert.equal(status.failed('boom'), 100);
  assert.equal(status.failed('boom'), 200);
  assert.equal(status.failed('boom'), 350);
  assert.equal(status.report.state, 'down');
  assert.equal(status.report.error, 'boom');
  assert.equal(status.report.nextRetryAt, new Date(350).toISOString());
  clock.advance(100);
  assert.equal(status.backoffRemaining(), 250);
  status.succeeded({ protocolVersion: '2025-11-25' });
  assert.equal(status.report.state, 'up');
  assert.equal(status.backoffRemaining(), 0);
  assert.equal(status.failed('again'), 100);
  assert.equal(status.backoffRemaining(), 100);
});

test('a failure reason is kept with the credentials of any URL in it redacted (it is served and logged)', () => {
  const status = new UpstreamStatus(spec, { initialDelayMs: 100, maxDelayMs: 350 }, new ManualClock(0));
  status.failed('Request cannot be constructed from a URL that includes credentials: http://u:pw@h:1/mcp?api_key=K');
  assert.equal(status.report.error, 'Request cannot be constructed from a URL that includes credentials: http://***@h:1/mcp?api_key=***');
});
