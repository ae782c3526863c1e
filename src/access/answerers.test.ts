import assert from 'node:assert/strict';
import { test } from 'node:test';

import { mayAnswer } from './answerers.js';
import type { Principal } from './principal.js';

const ops: Principal = { issuer: 'https://id.example', subject: 'ada', groups: ['desk-ops'], scopes: [] };
const other: Principal = { issuer: 'https://id.example', subject: 'eve', groups: ['billing'], scopes: [] };

test('without answerer rules every operator may answer every question', () => {
  assert.equal(mayAnswer([], other, { upstream: 'desk', tool: 'desk_restart_service' }), true);
});

test('a rule gives its group the upstreams and tools it names, nobody else', () => {
  const rules = [{ groups: ['desk-ops'], upstreams: ['desk'] }, { subjects: ['eve'], tools: ['billing_*'] }];
  assert.equal(mayAnswer(rules, ops, { upstream: 'desk', tool: 'desk_restart_service' }), true);
  assert.equal(mayAnswer(rules, ops, { upstream: 'billing' }), false);
  assert.equal(mayAnswer(rules, other, { upstream: 'desk', tool: 'desk_restart_service' }), false);
  assert.equal(mayAnswer(rules, other, { upstream: 'billing', tool: 'billing_refund' }), true);
  assert.equal(mayAnswer(rules, other, { upstream: 'billing' }), false, 'a tool rule does not cover a question no call explains');
});
