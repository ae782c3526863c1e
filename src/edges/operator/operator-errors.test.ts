/** @module Keeps the error catalogue of docs/operator-api.md and OPERATOR_ERRORS in step, status for status. */

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { OPERATOR_ERRORS, operatorError } from './operator-errors.js';

const doc = readFileSync(new URL('../../../docs/operator-api.md', import.meta.url), 'utf8');

test('docs/operator-api.md lists exactly the catalogue codes, each with its status', () => {
  const rows = [...doc.matchAll(/^\| <a id="([A-Z_]+)"><\/a>`\1` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
  assert.deepEqual(rows, Object.entries(OPERATOR_ERRORS).map(([code, { status }]) => [code, status]));
});

test('an error response carries the catalogue status and the { error: { code, message, field } } body', async () => {
  const response = operatorError('INVALID_ANSWER', 'content.ticket: too short', { field: 'content.ticket' });
  assert.equal(response.status, 400);
  assert.equal(response.headers.get('cache-control'), 'no-store');
  assert.deepEqual(await response.json(), { error: { code: 'INVALID_ANSWER', message: 'content.ticket: too short', field: 'content.ticket' } });
  assert.deepEqual(await operatorError('NOT_FOUND', 'No route').json(), { error: { code: 'NOT_FOUND', message: 'No route' } });
});
