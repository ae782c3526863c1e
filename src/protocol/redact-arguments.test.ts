import assert from 'node:assert/strict';
import { test } from 'node:test';

import { argumentsAtRest, MAX_SHOWN_ARGUMENTS } from './redact-arguments.js';

test('secret-looking names and schema-marked secrets are redacted at any depth; the rest is kept', () => {
  const schema = { type: 'object', properties: { pin: { type: 'string', writeOnly: true }, nested: { type: 'object', properties: { code: { type: 'string', format: 'password' } } } } };
  const shown = argumentsAtRest(
    { service: 'payments-api', password: 'hunter2', apiKey: 'k', pin: '1234', nested: { code: 'x', region: 'eu', Authorization: 'Bearer t' }, list: [{ token: 't', n: 1 }] },
    schema,
  );
  assert.deepEqual(shown, {
    service: 'payments-api',
    password: '[redacted]',
    apiKey: '[redacted]',
    pin: '[redacted]',
    nested: { code: '[redacted]', region: 'eu', Authorization: '[redacted]' },
    list: [{ token: '[redacted]', n: 1 }],
  });
});

test('arguments too long to show are cut and say so', () => {
  const shown = argumentsAtRest({ blob: 'x'.repeat(MAX_SHOWN_ARGUMENTS * 2) });
  assert.deepEqual(Object.keys(shown), ['[truncated]']);
  assert.ok(String(shown['[truncated]']).length <= MAX_SHOWN_ARGUMENTS + 1);
});
