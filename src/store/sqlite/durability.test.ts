/** @module A real process writes to the SQLite store and is killed with SIGKILL the moment its writes resolve; nothing resolved is lost. */

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { openSqliteQuestionStore } from './sqlite-question-store.js';

const child = fileURLToPath(new URL('./testing/durability-child.ts', import.meta.url));

/** Runs the child until it reports its writes, kills it with SIGKILL at once, and resolves how it ended. */
function writeThenKill(path: string, settledId: string, openId: string): Promise<{ signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, path, settledId, openId], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`the child did not report its writes in time; stderr: ${stderr}`));
    }, 30_000);
    proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('written\n')) proc.kill('SIGKILL');
    });
    proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    proc.on('error', reject);
    proc.on('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve({ signal, stderr });
    });
  });
}

test('writes that resolved survive SIGKILL, and the open question left behind is abandoned at the next start', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-durability-'));
  try {
    const path = join(dir, 'data', 'switchboard.db');
    const { signal, stderr } = await writeThenKill(path, 'settled-1', 'open-1');
    assert.equal(signal, 'SIGKILL', `the child must die by SIGKILL, not end by itself; stderr: ${stderr}`);
    assert.ok(existsSync(`${path}-wal`) && statSync(`${path}-wal`).size > 0, 'the writes are still in the WAL: recovery is what this test exercises');

    const store = await openSqliteQuestionStore({ path, owner: 'parent' });
    try {
      const settled = await store.get('settled-1');
      assert.equal(settled?.state, 'answered');
      assert.deepEqual(settled?.answer, { action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } });
      assert.deepEqual(settled?.answeredBy, { kind: 'host', sessionId: 'host-1' });
      assert.deepEqual(
        (await store.auditTrail('settled-1')).map((entry) => [entry.actor, entry.action, entry.detail]),
        [
          ['gateway', 'created', undefined],
          ['gateway', 'delivered', undefined],
          ['host:host-1', 'rejected-answer', { field: 'ticket' }],
          ['host:host-1', 'answered', undefined],
        ],
      );
      assert.equal((await store.get('open-1'))?.state, 'delivered');

      assert.equal(await store.abandonOpen('the gateway restarted', 'parent'), 0, 'the parent owns none of them');
      assert.equal(await store.abandonOpen('the gateway restarted', 'child'), 1);
      const abandoned = await store.get('open-1');
      assert.equal(abandoned?.state, 'abandoned');
      assert.deepEqual(abandoned?.answeredBy, { kind: 'gateway', reason: 'the gateway restarted' });
      assert.deepEqual(
        (await store.auditTrail('open-1')).map((entry) => entry.action),
        ['created', 'delivered', 'abandoned'],
      );
      assert.equal((await store.get('settled-1'))?.state, 'answered', 'a settled question is not abandoned');
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
