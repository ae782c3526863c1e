/** @module Tests of the consent rule: which questions go to a person whatever the host could do. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { consentReason } from './consent-rule.js';

const form = (properties: Record<string, unknown>) => ({ message: 'm', requestedSchema: { type: 'object', properties } });

const cases: { name: string; method?: string; params: Record<string, unknown>; consent: RegExp | undefined }[] = [
  { name: 'URL mode', params: { mode: 'url', url: 'https://example.test/pay', elicitationId: 'e1', message: 'pay' }, consent: /URL-mode/ },
  { name: 'format password', params: form({ p: { type: 'string', format: 'password' } }), consent: /'p' is a secret \(format password\)/ },
  { name: 'writeOnly field', params: form({ value: { type: 'string', writeOnly: true } }), consent: /'value' is a secret \(writeOnly\)/ },
  { name: 'field named like a password', params: form({ user: { type: 'string' }, password: { type: 'string' } }), consent: /'password' looks like a secret/ },
  { name: 'field named api_key', params: form({ api_key: { type: 'string' } }), consent: /'api_key'/ },
  { name: 'lone boolean named confirm', params: form({ confirm: { type: 'boolean' } }), consent: /lone yes\/no approval \('confirm'\)/ },
  { name: 'lone boolean named approveRestart', params: form({ approveRestart: { type: 'boolean' } }), consent: /approveRestart/ },
  { name: 'confirm with a ticket (the incident desk restart) is not lone', params: form({ confirm: { type: 'boolean' }, ticket: { type: 'string' } }), consent: undefined },
  { name: 'lone boolean with another name', params: form({ verbose: { type: 'boolean' } }), consent: undefined },
  { name: 'a number named pin_count is not a secret string', params: form({ pin_count: { type: 'number' } }), consent: undefined },
  { name: 'plain form', params: form({ name: { type: 'string' }, age: { type: 'integer' } }), consent: undefined },
  { name: 'no schema at all', params: { message: 'm' }, consent: undefined },
  { name: 'sampling is never a consent question', method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 }, consent: undefined },
];

for (const c of cases) {
  test(`consent rule: ${c.name}`, () => {
    const reason = consentReason(c.method ?? 'elicitation/create', c.params);
    if (c.consent === undefined) assert.equal(reason, undefined);
    else assert.match(reason ?? '(none)', c.consent);
  });
}
