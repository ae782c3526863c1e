/** @module incident-desk/stateless/request-state.test: the desk's signed, expiring requestState, and how a verified one is read. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { ServerContext } from '@modelcontextprotocol/server';

import { createDeskStateCodec, DEFAULT_STATE_TTL_SECONDS, explainRefusal, readDeskState, stateMatches } from './request-state.js';

const KEY = 'k'.repeat(32);
const CTX = {} as ServerContext;
const STATE = { tool: 'restart_service', subject: 'payments-api' };

/** The state with one character of its body (between "v1." and the MAC) changed. */
function alterBody(state: string): string {
  const at = 'v1.'.length + 4;
  return state.slice(0, at) + (state[at] === 'A' ? 'B' : 'A') + state.slice(at + 1);
}

/**
 * The state with its MAC's first character changed. Not the last one: of a 32-byte MAC's 43 base64url characters the
 * last carries 2 padding bits, so A and B there decode to the same bytes (the test failed whenever a MAC ended in A).
 */
function alterMac(state: string): string {
  const at = state.lastIndexOf('.') + 1;
  return state.slice(0, at) + (state[at] === 'A' ? 'B' : 'A') + state.slice(at + 1);
}

test('a minted state verifies back to its payload under the same key', async () => {
  const codec = createDeskStateCodec({ key: KEY });
  const state = await codec.mint(STATE);
  assert.match(state, /^v1\.[\w-]+\.[\w-]+$/);
  assert.deepEqual(await codec.verify(state, CTX), STATE);
});

test('the default lifetime is five minutes', () => {
  assert.equal(DEFAULT_STATE_TTL_SECONDS, 300);
});

test('an altered body, an altered MAC and another key are refused as a signature mismatch', async () => {
  const codec = createDeskStateCodec({ key: KEY });
  const state = await codec.mint(STATE);
  const mismatch = /signature does not match/;
  await assert.rejects(codec.verify(alterBody(state), CTX), mismatch);
  await assert.rejects(codec.verify(alterMac(state), CTX), mismatch);
  await assert.rejects(createDeskStateCodec({ key: 'z'.repeat(32) }).verify(state, CTX), mismatch);
});

test('a state past its lifetime is refused as expired', async () => {
  const stale = await createDeskStateCodec({ key: KEY, ttlSeconds: -60 }).mint(STATE);
  await assert.rejects(createDeskStateCodec({ key: KEY }).verify(stale, CTX), /expired \(a question is answerable for 300 s\)/);
});

test('a string that is not a desk state is refused as malformed', async () => {
  await assert.rejects(createDeskStateCodec({ key: KEY }).verify('approved', CTX), /not a requestState this desk mints/);
});

test('a key under 32 bytes is refused at construction', () => {
  assert.throws(() => createDeskStateCodec({ key: 'short' }), RangeError);
});

test('the SDK reasons are explained for the log; unknown ones pass through', () => {
  assert.equal(explainRefusal('bind', 300), 'bind');
});

test('only {tool, subject} strings read as a desk state', () => {
  assert.deepEqual(readDeskState(STATE), STATE);
  assert.equal(readDeskState(undefined), undefined);
  assert.equal(readDeskState('v1.raw'), undefined);
  assert.equal(readDeskState({ tool: 'restart_service' }), undefined);
  assert.equal(readDeskState({ tool: 'restart_service', subject: 7 }), undefined);
});

test('a state matches only its own tool and subject', () => {
  assert.equal(stateMatches(STATE, 'restart_service', 'payments-api'), true);
  assert.equal(stateMatches(STATE, 'restart_service', 'auth-gateway'), false);
  assert.equal(stateMatches(STATE, 'summarize_incident', 'payments-api'), false);
});
