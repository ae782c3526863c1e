/** @module Hosts with API keys: the right key gives its principal, anything else is refused with the realm challenge. */

import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { API_KEY_ISSUER } from '../../access/principal.js';
import { createHostAuthenticator } from './host-authenticator.js';
import type { HostAuthOutcome } from './host-authenticator.js';
import { captureLog } from '../../core/testing/capture-log.js';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const KEYS = [
  { sha256: sha256('key-one-0123456789'), subject: 'ci-bot', groups: ['ci'], scopes: ['mcp:tools'] },
  { sha256: sha256('k!ey@two#with$odd%chars'), subject: 'laptop', name: 'Ada\'s laptop', groups: [], scopes: [] },
];

const { logger, entries } = captureLog();
const auth = createHostAuthenticator({ kind: 'apiKeys', keys: KEYS }, { resource: 'https://g.example.test/mcp', resourceMetadataUrl: 'unused', logger });

function refusal(outcome: HostAuthOutcome) {
  if (outcome.ok) return assert.fail('expected a refusal');
  return outcome;
}

test('each configured key gives its own principal', async () => {
  assert.equal(auth.enabled, true);
  assert.deepEqual(await auth.authenticate('Bearer key-one-0123456789'), {
    ok: true,
    principal: { issuer: API_KEY_ISSUER, subject: 'ci-bot', groups: ['ci'], scopes: ['mcp:tools'] },
  });
  assert.deepEqual(await auth.authenticate('bearer   k!ey@two#with$odd%chars '), {
    ok: true,
    principal: { issuer: API_KEY_ISSUER, subject: 'laptop', name: 'Ada\'s laptop', groups: [], scopes: [] },
  });
});

test('an unknown key is 401 invalid_token with the realm challenge, and the key is not logged', async () => {
  for (const key of ['key-one-012345678', 'KEY-ONE-0123456789', KEYS[0]?.sha256 ?? '']) {
    const outcome = refusal(await auth.authenticate(`Bearer ${key}`));
    assert.equal(outcome.status, 401);
    assert.equal(outcome.error, 'invalid_token');
    assert.equal(outcome.wwwAuthenticate, 'Bearer realm="switchboard", error="invalid_token", error_description="The API key is not valid"');
  }
  assert.equal(JSON.stringify(entries).includes('key-one-012345678'), false);
});

test('no key or another scheme is 401 with the bare realm challenge; a malformed Bearer header is 400', async () => {
  for (const header of [null, 'Basic a2V5LW9uZQ==']) {
    const outcome = refusal(await auth.authenticate(header));
    assert.deepEqual([outcome.status, outcome.error, outcome.wwwAuthenticate], [401, undefined, 'Bearer realm="switchboard"']);
  }
  for (const header of ['Bearer', 'Bearer key-one-0123456789 more']) assert.equal(refusal(await auth.authenticate(header)).status, 400);
});

test('there is no resource metadata for API keys', () => {
  assert.equal(auth.metadata(), undefined);
});
