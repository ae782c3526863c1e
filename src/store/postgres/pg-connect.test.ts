/** @module Opening the PostgreSQL store when the server is not there or refuses us: one clear `unavailable` error naming the server, never the password. */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { openPostgresQuestionStore } from './pg-question-store.js';
import { shownUrl } from './pg-pool.js';
import { closedPort } from '../../core/testing/closed-port.js';
import { pgSkipReason, requireTestPgUrl } from './testing/pg-test-database.js';

/** Asserts that opening the store at `url` fails with `unavailable`, a message matching `reason`, and no `secret` in it. */
async function refused(url: string, reason: RegExp, secret: string): Promise<void> {
  await assert.rejects(openPostgresQuestionStore({ url, connectTimeoutMs: 5000 }), (error: Error & { code?: string }) => {
    assert.equal(error.name, 'QuestionStoreError');
    assert.equal(error.code, 'unavailable');
    assert.match(error.message, reason);
    assert.equal(error.message.includes(secret), false, error.message);
    assert.doesNotMatch(error.message, /\n/);
    return true;
  });
}

test('the URL is shown without its password and with query values hidden; user, host, port and database stay', () => {
  assert.equal(shownUrl('postgres://gw:S3cret@db.example:5433/switchboard'), 'postgres://gw@db.example:5433/switchboard');
  assert.equal(shownUrl('postgresql://gw:S3cret@db.example/sb?sslmode=require&password=S3cret'), 'postgresql://gw@db.example/sb?sslmode=***&password=***');
  assert.equal(shownUrl('postgres://db.example/sb'), 'postgres://db.example/sb');
  assert.equal(shownUrl('not a url S3cret'), 'not a url S3cret', 'what is not a URL is never a store URL (the config refuses it)');
});

test('a connection refused is reported clearly: which server, refused, and whether PostgreSQL runs there', async () => {
  const port = await closedPort();
  await refused(
    `postgres://gw:pw-S3cret@127.0.0.1:${port}/switchboard`,
    new RegExp(`^cannot connect to the PostgreSQL store postgres://gw@127\\.0\\.0\\.1:${port}/switchboard: connection refused .*is PostgreSQL running and listening there\\?$`),
    'S3cret',
  );
});

test('a host that does not resolve is reported as not found', async () => {
  await refused('postgres://gw:pw-S3cret@no-such-host.invalid:5432/switchboard', /postgres:\/\/gw@no-such-host\.invalid:5432\/switchboard: host not found/, 'S3cret');
});

describe('PostgreSQL store: a server that refuses us', { skip: pgSkipReason ?? false }, () => {
  test('a wrong password is reported as such, without the password', async () => {
    const url = new URL(requireTestPgUrl());
    url.password = 'Wr0ng-S3cret';
    await refused(url.toString(), /: password authentication failed for user ".*" \(is the password in the store URL right\?\)$/, 'Wr0ng-S3cret');
  });

  test('no password where the server asks for one says so', async () => {
    const url = new URL(requireTestPgUrl());
    if (url.password === '') return; // A server that trusts us needs none.
    url.password = '';
    await refused(url.toString(), /the server asks for a password and the store URL gives none$/, 'S3cret');
  });

  test('a database that does not exist is named', async () => {
    const url = new URL(requireTestPgUrl());
    url.pathname = '/no_such_database_here';
    await refused(url.toString(), /database "no_such_database_here" does not exist \(create it, or name another database in the store URL\)$/, url.password || 'S3cret');
  });

});
