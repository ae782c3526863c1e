/** @module Tests that every list filter reaches SQLite as a query an index serves, newest first, without sorting the table. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import Database from 'better-sqlite3';

import type { QuestionFilter } from '../../questions/question.js';
import { normalizeFilter } from '../list-filter.js';
import { listQuery } from './list-query.js';
import { migrate } from './schema.js';

function plan(filter: QuestionFilter): string {
  const db = new Database(':memory:');
  try {
    migrate(db, ':memory:');
    const { sql, params } = listQuery(normalizeFilter(filter));
    return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((row) => row.detail).join(' | ');
  } finally {
    db.close();
  }
}

test('each single filter is served in order by its own index', () => {
  const cases: [QuestionFilter, string][] = [
    [{}, 'questions_by_created'],
    [{ before: '2026-03-01' }, 'questions_by_created'],
    [{ state: 'pending' }, 'questions_by_state'],
    [{ upstream: 'desk' }, 'questions_by_upstream'],
    [{ tool: 'desk_restart' }, 'questions_by_tool'],
    [{ answeredBy: 'operator' }, 'questions_by_answerer'],
    [{ method: 'roots/list' }, 'questions_by_method'],
  ];
  for (const [filter, index] of cases) {
    const detail = plan(filter);
    assert.match(detail, new RegExp(`USING INDEX ${index}\\b`), JSON.stringify(filter));
    assert.doesNotMatch(detail, /TEMP B-TREE/, `${JSON.stringify(filter)} must not sort: ${detail}`);
  }
});

test('the text depends only on which conditions are present, and the values travel as parameters', () => {
  const one = listQuery(normalizeFilter({ upstream: "desk'; DROP TABLE questions; --", state: ['answered', 'declined'], limit: 5 }));
  const two = listQuery(normalizeFilter({ upstream: 'ops', state: ['expired', 'cancelled'], limit: 7 }));
  assert.equal(one.sql, two.sql);
  assert.doesNotMatch(one.sql, /desk|answered|DROP/);
  assert.deepEqual(one.params, { limit: 5, state0: 'answered', state1: 'declined', upstream: "desk'; DROP TABLE questions; --" });
});
