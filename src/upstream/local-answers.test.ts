/** @module Local answers: ids counted per table, each answer delivered once, forgotten questions dropped, all failed on close. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LocalAnswer } from './local-answers.js';
import { LocalAnswers } from './local-answers.js';

test('ids are counted per table', () => {
  const a = new LocalAnswers();
  const b = new LocalAnswers();
  assert.deepEqual([a.newId(), a.newId(), b.newId()], ['sb-in-1', 'sb-in-2', 'sb-in-1']);
});

test('an answer reaches its handler once; a forgotten or unknown question takes none', () => {
  const table = new LocalAnswers();
  const got: LocalAnswer[] = [];
  table.expect('sb-in-1', (answer) => got.push(answer));
  table.expect('sb-in-2', (answer) => got.push(answer));
  assert.equal(table.has('sb-in-1'), true);
  assert.equal(table.deliver('sb-in-1', { result: { n: 1 } }), true);
  assert.equal(table.has('sb-in-1'), false);
  assert.equal(table.deliver('sb-in-1', { result: { n: 2 } }), false);
  table.forget('sb-in-2');
  assert.equal(table.deliver('sb-in-2', { result: { n: 3 } }), false);
  assert.equal(table.deliver(7, { result: {} }), false);
  assert.deepEqual(got, [{ result: { n: 1 } }]);
});

test('failAll answers every open question with an error object of its own and forgets them', () => {
  const table = new LocalAnswers();
  const got: LocalAnswer[] = [];
  table.expect('sb-in-1', (answer) => got.push(answer));
  table.expect('sb-in-2', (answer) => got.push(answer));
  table.failAll(() => ({ code: -32000, message: 'closed' }));
  assert.deepEqual(got, [{ error: { code: -32000, message: 'closed' } }, { error: { code: -32000, message: 'closed' } }]);
  assert.ok('error' in got[0]! && 'error' in got[1]! && got[0].error !== got[1].error);
  assert.equal(table.has('sb-in-1'), false);
  table.failAll(() => assert.fail('nothing is left to fail'));
});
