/** @module Tests of the params and principal digests: what they ignore, what they notice. */

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';

import { paramsDigest, principalDigest } from './params-digest.js';

const CALL = { name: 'restart_service', arguments: { service: 'payments-api', force: false } };

test('retry fields, _meta and key order do not change the digest', () => {
  const same = [
    { arguments: { force: false, service: 'payments-api' }, name: 'restart_service' },
    { ...CALL, inputResponses: { confirm: { action: 'accept' } }, requestState: 'sb1.a.b' },
    { ...CALL, _meta: { progressToken: 9, 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
  ];
  for (const params of same) assert.equal(paramsDigest(params), paramsDigest(CALL), JSON.stringify(params));
  assert.equal(paramsDigest(undefined), paramsDigest({}));
  assert.equal(paramsDigest(CALL), createHash('sha256').update('{"arguments":{"force":false,"service":"payments-api"},"name":"restart_service"}').digest('base64url'), 'the digest is of the canonical text');
});

test('any change to what the request asks changes the digest', () => {
  const different = [
    { ...CALL, name: 'stop_service' },
    { ...CALL, arguments: { service: 'payments-api', force: true } },
    { ...CALL, arguments: { service: 'payments-api' } },
    { ...CALL, arguments: { service: 'payments-api', force: false, extra: null } },
    { name: 'restart_service' },
    { ...CALL, arguments: { service: 'payments-api', force: 'false' } },
    { ...CALL, cursor: 'x' },
  ];
  const digests = new Set([paramsDigest(CALL), ...different.map(paramsDigest)]);
  assert.equal(digests.size, different.length + 1);
});

test('principal digests are stable, distinct, and do not show the principal', () => {
  assert.equal(principalDigest('alice'), principalDigest('alice'));
  assert.notEqual(principalDigest('alice'), principalDigest('bob'));
  assert.notEqual(principalDigest(''), principalDigest('\u0000'));
  assert.ok(!principalDigest('alice@example.com').includes('alice'));
  assert.match(principalDigest('x'), /^[A-Za-z0-9_-]{43}$/);
});
