/** @module Tests of the scope arithmetic of upstream OAuth: selection order, unions for step-up, coverage. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { scopeCovers, scopeTokens, scopeUnion, selectScope } from './scope.js';

test('tokens and unions keep first-seen order and drop repeats and blanks', () => {
  assert.deepEqual(scopeTokens('a  b', undefined, 'b c', ''), ['a', 'b', 'c']);
  assert.equal(scopeUnion('read', 'read write'), 'read write');
  assert.equal(scopeUnion(undefined, ' '), undefined);
});

test('coverage: every required token held; nothing required is always covered', () => {
  assert.equal(scopeCovers('read write', 'write'), true);
  assert.equal(scopeCovers('read', 'read write'), false);
  assert.equal(scopeCovers(undefined, 'read'), false);
  assert.equal(scopeCovers(undefined, undefined), true);
});

test('selection: challenge (with what was asked before), else before, else configured, else resource scopes, else none', () => {
  const all = { previous: 'p', configured: 'c', resourceScopes: ['r1', 'r2'] };
  assert.equal(selectScope({ ...all, challenged: 'x' }), 'p x');
  assert.equal(selectScope({ challenged: 'x', configured: 'c' }), 'x');
  assert.equal(selectScope(all), 'p');
  assert.equal(selectScope({ configured: 'c', resourceScopes: ['r1'] }), 'c');
  assert.equal(selectScope({ resourceScopes: ['r1', 'r2'] }), 'r1 r2');
  assert.equal(selectScope({ resourceScopes: [] }), undefined);
  assert.equal(selectScope({}), undefined);
});

test('offline_access is added only when the authorization server lists it and some scope is asked for', () => {
  assert.equal(selectScope({ challenged: 'a', serverScopes: ['a', 'offline_access'] }), 'a offline_access');
  assert.equal(selectScope({ challenged: 'a offline_access', serverScopes: ['offline_access'] }), 'a offline_access');
  assert.equal(selectScope({ challenged: 'a', serverScopes: ['a'] }), 'a');
  assert.equal(selectScope({ serverScopes: ['offline_access'] }), undefined);
});
