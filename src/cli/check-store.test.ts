/** @module `switchboard check` reports the store: SQLite without creating the file, PostgreSQL with the server's and the schema's versions, never the password. */

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { MIGRATIONS } from '../store/postgres/pg-schema.js';
import { openPostgresQuestionStore } from '../store/postgres/pg-question-store.js';
import { freshSchema, pgSkipReason, requireTestPgUrl } from '../store/postgres/testing/pg-test-database.js';
import { closedPort } from '../core/testing/closed-port.js';
import { runCliInProcess } from './testing/in-process-cli.js';

/** An upstream nothing answers at once (port 9 refuses), so `check` is quick; its failure is not what these tests look at. */
const UPSTREAM = 'upstreams:\n  web: { url: "http://127.0.0.1:9/mcp" }\n';

async function check(configText: string): Promise<{ code: number; stdout: string; stderr: string; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-check-'));
  const file = join(dir, 'sb.yaml');
  await writeFile(file, configText);
  return { ...(await runCliInProcess(['check', '--config', file])), dir };
}


describe('switchboard check: the store', () => {
  it('SQLite: the file, and that serve will create it; check itself creates nothing', async () => {
    const result = await check(UPSTREAM);
    assert.match(result.stdout, new RegExp(`store \\(sqlite\\): ok\\n {2}file: {9}${join(result.dir, 'data', 'switchboard.db').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n {2}schema: {7}not created yet`));
    assert.equal(existsSync(join(result.dir, 'data')), false);
  });

  it('PostgreSQL that refuses the connection: FAILED with the reason, exit 1, no password anywhere', async () => {
    const port = await closedPort();
    const result = await check(`${UPSTREAM}store: { type: postgres, url: "postgres://gw:pw-S3cret@127.0.0.1:${port}/sb" }\n`);
    assert.equal(result.code, 1);
    assert.match(result.stdout, new RegExp(`store \\(postgres\\): FAILED\\n {2}database: {5}postgres://gw@127\\.0\\.0\\.1:${port}/sb, schema public\\n {2}reason: {7}cannot connect .*connection refused`));
    assert.match(result.stdout, /The store failed\.\n$/);
    assert.equal(`${result.stdout}${result.stderr}`.includes('S3cret'), false);
  });

  it('PostgreSQL that answers: the server version, and the schema version once serve has made it', { skip: pgSkipReason ?? false }, async () => {
    const { schema, dispose } = freshSchema();
    try {
      const config = `${UPSTREAM}store: { type: postgres, url: "${requireTestPgUrl()}", schema: ${schema} }\n`;
      const before = await check(config);
      assert.match(before.stdout, /store \(postgres\): ok\n {2}database: .*, schema sb_test_\w+\n {2}server: {7}PostgreSQL \d+.*\n {2}schema: {7}not created yet \(serve creates version \d+\)\n/);
      const password = new URL(requireTestPgUrl()).password;
      if (password !== '') assert.equal(before.stdout.includes(password), false);
      await (await openPostgresQuestionStore({ url: requireTestPgUrl(), schema })).close();
      const after = await check(config);
      assert.match(after.stdout, new RegExp(`\\n {2}schema: {7}version ${MIGRATIONS.length}\\n`));
    } finally {
      await dispose();
    }
  });
});
