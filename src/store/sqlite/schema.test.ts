/** @module Tests of the SQLite store's migrations: forward only, all or nothing, and the header checks before any write. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import Database from 'better-sqlite3';

import type { Migration } from './schema.js';
import { APPLICATION_ID, MIGRATIONS, checkMigrations, latestVersion, migrate } from './schema.js';

function names(db: Database.Database, type: 'table' | 'index'): string[] {
  return (db.prepare("SELECT name FROM sqlite_schema WHERE type = ? AND name NOT LIKE 'sqlite%' ORDER BY name").pluck().all(type) as string[]);
}

test('the released migrations are numbered 1, 2, 3… and the latest has the tables, indexes and foreign keys of the store', () => {
  checkMigrations(MIGRATIONS);
  const db = new Database(':memory:');
  try {
    assert.equal(migrate(db, ':memory:'), 0, 'a new file starts at version 0');
    assert.equal(db.pragma('user_version', { simple: true }), latestVersion());
    assert.equal(db.pragma('application_id', { simple: true }), APPLICATION_ID);
    assert.deepEqual(names(db, 'table'), ['audit', 'questions', 'run_questions', 'runs']);
    assert.deepEqual(names(db, 'index'), [
      'audit_by_question',
      'questions_by_answerer',
      'questions_by_created',
      'questions_by_method',
      'questions_by_state',
      'questions_by_tool',
      'questions_by_upstream',
      'questions_open_by_owner',
      'run_questions_by_run',
      'runs_by_composite',
      'runs_by_started',
      'runs_by_state',
    ]);
    const foreignKeys = (table: string) => (db.prepare(`PRAGMA foreign_key_list(${table})`).all() as { table: string; from: string; to: string }[]).map((key) => [key.from, key.table, key.to]);
    assert.deepEqual(foreignKeys('audit'), [['question_id', 'questions', 'id']]);
    assert.deepEqual(foreignKeys('run_questions'), [['run_id', 'runs', 'id']]);
    assert.equal(migrate(db, ':memory:'), latestVersion(), 'a second run finds the latest version and does nothing');
  } finally {
    db.close();
  }
});

test('version 2 adds the composite runs to a version-1 file without touching its questions', () => {
  const db = new Database(':memory:');
  try {
    assert.equal(migrate(db, ':memory:', MIGRATIONS.slice(0, 1)), 0);
    assert.deepEqual(names(db, 'table'), ['audit', 'questions']);
    assert.equal(migrate(db, ':memory:', MIGRATIONS.slice(0, 2)), 1);
    assert.equal(db.pragma('user_version', { simple: true }), 2);
    assert.deepEqual(names(db, 'table'), ['audit', 'questions', 'run_questions', 'runs']);
  } finally {
    db.close();
  }
});

test('migrations are numbered without gaps or repeats', () => {
  assert.throws(() => checkMigrations([{ version: 1, sql: '' }, { version: 3, sql: '' }]), /migration 2 is numbered 3/);
  assert.throws(() => checkMigrations([{ version: 1, sql: '' }, { version: 1, sql: '' }]), /migration 2 is numbered 1/);
});

const first: Migration = { version: 1, sql: 'CREATE TABLE notes (text TEXT)' };
const second: Migration = { version: 2, sql: 'ALTER TABLE notes ADD COLUMN author TEXT' };

test('an older file gets only the steps it is missing, and keeps its data', () => {
  const db = new Database(':memory:');
  try {
    migrate(db, ':memory:', [first]);
    db.prepare("INSERT INTO notes (text) VALUES ('kept')").run();
    assert.equal(migrate(db, ':memory:', [first, second]), 1);
    assert.equal(db.pragma('user_version', { simple: true }), 2);
    assert.deepEqual(db.prepare('SELECT text, author FROM notes').all(), [{ text: 'kept', author: null }]);
  } finally {
    db.close();
  }
});

test('a failing step leaves the file as it was: no half-applied schema, the version unchanged', () => {
  const db = new Database(':memory:');
  try {
    migrate(db, ':memory:', [first]);
    const broken: Migration = { version: 2, sql: 'CREATE TABLE extra (x TEXT); INSERT INTO nowhere VALUES (1)' };
    assert.throws(() => migrate(db, ':memory:', [first, broken]), /no such table: nowhere/);
    assert.equal(db.pragma('user_version', { simple: true }), 1);
    assert.deepEqual(names(db, 'table'), ['notes']);
  } finally {
    db.close();
  }
});

test('a newer file or another application\'s database is refused before anything is written', () => {
  const db = new Database(':memory:');
  try {
    migrate(db, 'store.db', [first, second]);
    assert.throws(() => migrate(db, 'store.db', [first]), { code: 'newer-schema', message: /store\.db has question store schema version 2.*up to 1/ });
    assert.equal(db.pragma('user_version', { simple: true }), 2);
  } finally {
    db.close();
  }
  const other = new Database(':memory:');
  try {
    other.exec('CREATE TABLE invoices (id INTEGER)');
    assert.throws(() => migrate(other, 'books.db'), { code: 'not-a-store', message: /books\.db is not a Switchboard question store/ });
    assert.deepEqual(names(other, 'table'), ['invoices']);
    other.pragma('application_id = 42');
    other.exec('DROP TABLE invoices');
    assert.throws(() => migrate(other, 'books.db'), { code: 'not-a-store' }, 'another application id, even on an empty file');
  } finally {
    other.close();
  }
});
