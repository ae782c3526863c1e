/** @module Tests of reading, stamping and removing resultType. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { readResultType, withCompleteResultType, withoutModernResultFields } from './result-type.js';

test('resultType is read per era: absent is complete only from a legacy server, unknown is always invalid', () => {
  const cases: [unknown, 'legacy' | 'modern', string][] = [
    [{ content: [] }, 'legacy', 'complete'],
    [{ content: [] }, 'modern', 'invalid'],
    [{ resultType: undefined }, 'legacy', 'complete'],
    [{ resultType: 'complete' }, 'modern', 'complete'],
    [{ resultType: 'complete' }, 'legacy', 'complete'],
    [{ resultType: 'input_required', requestState: 's' }, 'modern', 'input_required'],
    [{ resultType: 'task' }, 'modern', 'invalid'],
    [{ resultType: 'Complete' }, 'modern', 'invalid'],
    [{ resultType: null }, 'legacy', 'invalid'],
    [{ resultType: 1 }, 'modern', 'invalid'],
    [[], 'legacy', 'invalid'],
    [null, 'modern', 'invalid'],
  ];
  for (const [result, era, expected] of cases) {
    const read = readResultType(result, era);
    assert.equal(read.ok ? read.type : 'invalid', expected, `${era} ${JSON.stringify(result)}`);
    if (!read.ok) assert.ok(read.reason.length > 0);
  }
});

test('stamping adds complete, stripping removes the three 2026-only fields, neither changes its input', () => {
  const legacyResult = Object.freeze({ content: [{ type: 'text', text: 'x' }], isError: false });
  assert.deepEqual(withCompleteResultType(legacyResult), { ...legacyResult, resultType: 'complete' });
  const modernList = Object.freeze({ tools: [], nextCursor: 'c', resultType: 'complete', ttlMs: 5, cacheScope: 'public', _meta: { a: 1 } });
  assert.deepEqual(withoutModernResultFields(modernList), { tools: [], nextCursor: 'c', _meta: { a: 1 } });
});
