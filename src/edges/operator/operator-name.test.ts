/** @module The operator's name from X-Switchboard-Operator: what the audit trail may carry. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { DEFAULT_OPERATOR, MAX_OPERATOR_NAME, operatorName } from './operator-name.js';

test('keeps a plain name and sanitises the rest', () => {
  const cases: [string | null, string][] = [
    [null, 'operator'],
    ['', 'operator'],
    ['   ', 'operator'],
    ['<>"\'', 'operator'],
    ['Ada Lovelace', 'Ada Lovelace'],
    ['  grace.hopper@example.com ', 'grace.hopper@example.com'],
    ['Zoë  Ñúñez', 'Zoë Ñúñez'],
    ['eve\r\nX-Injected: 1', 'eveX-Injected 1'],
    ['operator:root', 'operatorroot'],
    ['<img src=x onerror=alert(1)>', 'img srcx onerroralert1'],
    ['a\u0000b\u001bc', 'abc'],
  ];
  for (const [header, expected] of cases) assert.equal(operatorName(header), expected, JSON.stringify(header));
});

test('caps the length in characters', () => {
  assert.equal(operatorName('x'.repeat(500)), 'x'.repeat(MAX_OPERATOR_NAME));
  assert.equal([...operatorName('é'.repeat(100))].length, MAX_OPERATOR_NAME);
  assert.equal(DEFAULT_OPERATOR, 'operator');
});
