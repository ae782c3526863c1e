/** @module CSRF checks of cookie-authenticated requests: reads pass, a state change needs the session's token and the gateway's own origin. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { checkCsrf } from './csrf.js';
import { OperatorProblem } from './operator-errors.js';

const ORIGINS = ['http://127.0.0.1:3939', 'https://ops.example'];
const TOKEN = 'csrf-token-of-this-session';
const post = (headers: Record<string, string>) => new Request('http://127.0.0.1:3939/api/questions/q-1/answer', { method: 'POST', headers });

function refusal(run: () => void): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    assert.ok(error instanceof OperatorProblem);
    assert.equal(error.code, 'CSRF_REJECTED');
    assert.equal(error.response.status, 403);
    return error.message;
  }
}

test('a read needs no token; a state change needs the session\'s token, from the gateway\'s own origin', () => {
  assert.equal(refusal(() => checkCsrf(new Request('http://127.0.0.1:3939/api/questions'), TOKEN, ORIGINS)), undefined);
  assert.equal(refusal(() => checkCsrf(post({ 'x-csrf-token': TOKEN }), TOKEN, ORIGINS)), undefined, 'no Origin (not every client sends one)');
  assert.equal(refusal(() => checkCsrf(post({ 'x-csrf-token': TOKEN, origin: 'https://ops.example', 'sec-fetch-site': 'same-origin' }), TOKEN, ORIGINS)), undefined, 'the public URL is ours');
  assert.match(refusal(() => checkCsrf(post({}), TOKEN, ORIGINS)) ?? '', /X-CSRF-Token|x-csrf-token/i);
  assert.ok(refusal(() => checkCsrf(post({ 'x-csrf-token': `${TOKEN}x` }), TOKEN, ORIGINS)));
  assert.ok(refusal(() => checkCsrf(post({ 'x-csrf-token': '' }), TOKEN, ORIGINS)));
  assert.match(refusal(() => checkCsrf(post({ 'x-csrf-token': TOKEN, origin: 'https://evil.example' }), TOKEN, ORIGINS)) ?? '', /evil\.example/);
  assert.ok(refusal(() => checkCsrf(post({ 'x-csrf-token': TOKEN, origin: 'null' }), TOKEN, ORIGINS)));
  assert.ok(refusal(() => checkCsrf(post({ 'x-csrf-token': TOKEN, 'sec-fetch-site': 'cross-site' }), TOKEN, ORIGINS)));
});

test('a request forwarded by another instance (its Origin checked there) still needs the session\'s token', () => {
  assert.equal(refusal(() => checkCsrf(post({ 'x-csrf-token': TOKEN, origin: 'https://lb.example' }), TOKEN, 'checked')), undefined);
  assert.ok(refusal(() => checkCsrf(post({ origin: 'https://lb.example' }), TOKEN, 'checked')));
});
