/** @module Which refusals say the upstream forgot our session (issue 11 item 17). */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { refusalForgetsSession } from './forgotten-session.js';

test('404, and a 4xx whose words say the session is unknown, forget the session', () => {
  for (const [status, detail] of [
    [404, ''],
    [404, 'Not Found'],
    [400, 'Session not found'],
    [400, 'Bad Request: No valid session ID provided'],
    [400, 'Bad Request: Server not initialized'],
    [400, 'Invalid or expired session'],
    [422, 'session abc does not exist'],
    [410, 'Unknown session'],
  ] as const) {
    assert.equal(refusalForgetsSession(status, detail), true, `${status} ${detail}`);
  }
});

test('credentials, server failures and other client errors do not', () => {
  for (const [status, detail] of [
    [400, 'Parse error'],
    [400, 'Bad Request: Mcp-Session-Id header is required'],
    [400, 'Unsupported protocol version: 2026-07-28'],
    [401, 'Session not found'],
    [403, 'invalid session token'],
    [500, 'Session not found'],
    [200, 'Session not found'],
  ] as const) {
    assert.equal(refusalForgetsSession(status, detail), false, `${status} ${detail}`);
  }
});
