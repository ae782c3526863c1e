/** @module Tests of the flat question row: the columns derived for filtering, and strict reading of what a file holds. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { makeQuestion } from './testing/question-fixtures.js';
import { decodeQuestion, encodeQuestion } from './question-row.js';

test('the filter columns are derived from the record, and the owner is the storing instance', () => {
  const question = makeQuestion({
    origin: { upstream: 'desk', tool: 'desk_restart', hostSessionId: 'h-9', principal: 'alice@example.com' },
    answeredBy: { kind: 'operator', name: 'ann' },
    state: 'answered',
    answer: { action: 'decline' },
    settledAt: '2026-03-01T09:05:00.000Z',
  });
  const row = encodeQuestion(question, 'gw-1');
  assert.deepEqual(
    [row.upstream, row.tool, row.host_session, row.principal, row.answered_by_kind, row.owner, row.settled_at],
    ['desk', 'desk_restart', 'h-9', 'alice@example.com', 'operator', 'gw-1', '2026-03-01T09:05:00.000Z'],
  );
  assert.deepEqual(decodeQuestion(row), question);
  const bare = encodeQuestion(makeQuestion({ origin: { upstream: 'ops' } }), undefined);
  assert.deepEqual([bare.tool, bare.host_session, bare.principal, bare.answered_by_kind, bare.owner, bare.answer], [null, null, null, null, null, null]);
});

test('a row read back has its keys in one order, without undefined-valued optional keys', () => {
  const record = decodeQuestion(encodeQuestion(makeQuestion({ hostParams: undefined, audienceReason: undefined }), undefined));
  assert.deepEqual(Object.keys(record), ['id', 'method', 'params', 'origin', 'route', 'audience', 'state', 'deadline', 'createdAt', 'updatedAt']);
});

test('values of the wrong type in a row are named, not trusted', () => {
  const row = encodeQuestion(makeQuestion({ id: 'q-typed' }), undefined);
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ params: 42 }, /question q-typed is damaged: params must be JSON text, found number 42/],
    [{ params: '"a string"' }, /params must hold a JSON object, found "a string"/],
    [{ created_at: null }, /created_at must be a UTC time as toISOString\(\) writes it, found null/],
    [{ answered_by_kind: 'host' }, /answered_by_kind disagrees with answered_by \("host" against nothing\)/],
    [{ origin: '{"upstream":"desk","tool":7}' }, /origin tool must be a string/],
    [{ method: Buffer.from('x') }, /method must be a non-empty string, found binary data/],
    [{ audience_reason: 3 }, /audience_reason must be a string or absent/],
  ];
  for (const [change, message] of cases) {
    assert.throws(() => decodeQuestion({ ...row, ...change }), { name: 'QuestionStoreError', code: 'corrupt-record', questionId: 'q-typed', message });
  }
});
