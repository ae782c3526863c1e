/** @module The PostgreSQL the store tests run against: `SWITCHBOARD_TEST_PG_URL` (scripts/test-postgres.sh starts a throwaway one), a fresh schema per test so runs never meet, and the reason the tests are skipped without it. */

import { randomBytes } from 'node:crypto';

import { Client, escapeIdentifier } from 'pg';

export const TEST_PG_URL_VARIABLE = 'SWITCHBOARD_TEST_PG_URL';

/** The server the tests use, when there is one. */
export const testPgUrl: string | undefined = process.env[TEST_PG_URL_VARIABLE] === '' ? undefined : process.env[TEST_PG_URL_VARIABLE];

/**
 * Why the PostgreSQL tests are skipped, or undefined when they run. When the variable is set, they run: a server that
 * is not there then fails them (CI sets it, so it never skips them).
 */
export const pgSkipReason: string | undefined =
  testPgUrl === undefined
    ? `no PostgreSQL to test against: ${TEST_PG_URL_VARIABLE} is not set (scripts/test-postgres.sh run npm test starts a throwaway one and sets it)`
    : undefined;

/** The test server's URL; only call it in tests that are not skipped. */
export function requireTestPgUrl(): string {
  if (testPgUrl === undefined) throw new Error(pgSkipReason);
  return testPgUrl;
}

/** The test server's URL with an application name of its own, so a test can find (and cut) its connections. */
export function testPgUrlNamed(name: string): string {
  const url = new URL(requireTestPgUrl());
  url.searchParams.set('application_name', name);
  return url.toString();
}

/** Runs `work` on one connection of its own to the test server, closed afterwards. */
export async function withTestClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: requireTestPgUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A schema name no other test (of this run or another) uses: nothing is created until a store opens it. */
export function uniqueSchemaName(): string {
  return `sb_test_${process.pid}_${randomBytes(6).toString('hex')}`;
}

/** Drops `schema` and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  await withTestClient((client) => client.query(`DROP SCHEMA IF EXISTS ${escapeIdentifier(schema)} CASCADE`));
}

/** A fresh schema name per test, and its removal afterwards (`dispose`). */
export function freshSchema(): { schema: string; dispose(): Promise<void> } {
  const schema = uniqueSchemaName();
  return { schema, dispose: () => dropSchema(schema) };
}
