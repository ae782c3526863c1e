/** @module The record of spawned upstreams and the reaper that reads it (issue 11 item 10): only a dead gateway's records are acted on, only the recorded process is signalled. */

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import { within } from '../../../core/testing/deadlines.js';
import { reapOrphanedUpstreams } from './orphan-reaper.js';
import { LEDGER_FOLDER, ledgerFileName, type LedgerRecord, ProcessLedger } from './process-ledger.js';
import { isStillRunning, processStartTime } from './process-start.js';

const linuxOnly = { skip: process.platform !== 'linux' && 'reads /proc for process start times' };
const children: ChildProcess[] = [];
after(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** A node process that runs until killed; `ignoreTerm` makes it shrug SIGTERM off. */
async function longRunning(ignoreTerm = false): Promise<{ pid: number; startTime: string; exited: Promise<unknown> }> {
  const code = `${ignoreTerm ? "process.on('SIGTERM', () => undefined);" : ''} setInterval(() => undefined, 60000); process.stdout.write('up\\n');`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(child);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise((resolve) => child.stdout?.once('data', resolve));
  const pid = child.pid as number;
  return { pid, startTime: processStartTime(pid) as string, exited };
}

/** The pid of a process that has already ended (as a gateway killed with SIGKILL). */
async function endedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

function dataFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'switchboard-ledger-'));
  after(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

function writeRecord(folder: string, record: LedgerRecord): string {
  mkdirSync(join(folder, LEDGER_FOLDER), { recursive: true });
  const file = join(folder, LEDGER_FOLDER, ledgerFileName(record.gateway.pid));
  writeFileSync(file, JSON.stringify(record));
  return file;
}

describe('processStartTime', linuxOnly, () => {
  it('names a running process for good: a different start time, or an ended pid, is not running', async () => {
    const self = processStartTime(process.pid);
    assert.match(self ?? '', /^\d+$/);
    assert.equal(isStillRunning(process.pid, self as string), true);
    assert.equal(isStillRunning(process.pid, `${self}0`), false);
    assert.equal(processStartTime(await endedPid()), undefined);
  });
});

describe('ProcessLedger', linuxOnly, () => {
  it('records each spawned upstream with this gateway’s identity, forgets the ended ones, and removes its file at a clean close', async () => {
    const folder = dataFolder();
    const ledger = new ProcessLedger(folder);
    assert.equal(existsSync(ledger.file), false, 'nothing is written before there is something to record');
    const a = await longRunning();
    const b = await longRunning();
    ledger.spawned(a.pid, 'alpha');
    ledger.spawned(b.pid, 'beta');
    const record = JSON.parse(readFileSync(ledger.file, 'utf8')) as LedgerRecord;
    assert.deepEqual(record, {
      gateway: { pid: process.pid, startTime: processStartTime(process.pid) },
      upstreams: [
        { pid: a.pid, startTime: a.startTime, name: 'alpha' },
        { pid: b.pid, startTime: b.startTime, name: 'beta' },
      ],
    });
    ledger.ended(a.pid);
    ledger.close();
    assert.deepEqual((JSON.parse(readFileSync(ledger.file, 'utf8')) as LedgerRecord).upstreams.map((u) => u.name), ['beta'], 'kept while an upstream is still recorded');
    ledger.ended(b.pid);
    ledger.close();
    assert.equal(existsSync(ledger.file), false);
  });

  it('reports a record it cannot write instead of throwing', () => {
    const folder = dataFolder();
    writeFileSync(join(folder, LEDGER_FOLDER), 'a file where the folder should be');
    const errors: unknown[] = [];
    const ledger = new ProcessLedger(folder, { onWriteError: (error) => errors.push(error) });
    ledger.spawned(process.pid, 'self');
    assert.equal(errors.length, 1);
  });
});

describe('reapOrphanedUpstreams', linuxOnly, () => {
  it('stops the upstreams of a gateway that is gone (SIGTERM), says which, and removes its record', async () => {
    const folder = dataFolder();
    const orphan = await longRunning();
    const gatewayPid = await endedPid();
    const file = writeRecord(folder, { gateway: { pid: gatewayPid, startTime: '1' }, upstreams: [{ pid: orphan.pid, startTime: orphan.startTime, name: 'lab' }] });
    const stopped = await reapOrphanedUpstreams(folder);
    assert.deepEqual(stopped, [{ pid: orphan.pid, startTime: orphan.startTime, name: 'lab', gatewayPid, signal: 'SIGTERM' }]);
    assert.ok(await within(orphan.exited, 10_000), 'the orphan ended');
    assert.equal(existsSync(file), false);
  });

  it('kills an orphan that ignores SIGTERM once the grace has passed', async () => {
    const folder = dataFolder();
    const stubborn = await longRunning(true);
    writeRecord(folder, { gateway: { pid: await endedPid(), startTime: '1' }, upstreams: [{ pid: stubborn.pid, startTime: stubborn.startTime, name: 'stubborn' }] });
    const stopped = await reapOrphanedUpstreams(folder, { graceMs: 300 });
    assert.deepEqual(stopped.map((s) => [s.name, s.signal]), [['stubborn', 'SIGKILL']]);
    assert.ok(await within(stubborn.exited, 10_000), 'the orphan ended');
  });

  it('leaves alone a living gateway’s upstreams, a pid now used by another process, and a record it cannot read', async () => {
    const folder = dataFolder();
    const ownUpstream = await longRunning();
    const reused = await longRunning();
    const living = writeRecord(folder, {
      gateway: { pid: process.pid, startTime: processStartTime(process.pid) as string },
      upstreams: [{ pid: ownUpstream.pid, startTime: ownUpstream.startTime, name: 'mine' }],
    });
    // A dead gateway's record whose pid now names another process (same pid, other start time).
    const dead = writeRecord(folder, { gateway: { pid: await endedPid(), startTime: '1' }, upstreams: [{ pid: reused.pid, startTime: `${reused.startTime}9`, name: 'old' }] });
    const garbled = join(folder, LEDGER_FOLDER, ledgerFileName(1));
    writeFileSync(garbled, '{not json');
    const bad: string[] = [];
    assert.deepEqual(await reapOrphanedUpstreams(folder, { onBadRecord: (file) => bad.push(file) }), []);
    assert.equal(isStillRunning(ownUpstream.pid, ownUpstream.startTime), true);
    assert.equal(isStillRunning(reused.pid, reused.startTime), true);
    assert.equal(existsSync(living), true, 'a living gateway keeps its record');
    assert.equal(existsSync(dead), false, 'a dead gateway’s record goes, even with nothing left to stop');
    assert.deepEqual(bad, [garbled]);
    assert.equal(existsSync(garbled), true);
  });

  it('finds nothing to do where nothing was ever recorded', async () => {
    assert.deepEqual(await reapOrphanedUpstreams(dataFolder()), []);
  });
});
