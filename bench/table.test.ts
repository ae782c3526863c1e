/** @module Tests of the targets table's goal lines: shared idle memory at most 1.3× direct, and cell 5 (per-session idle hosts: tree RSS and processes). */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { IdleResult } from './idle-phase.js';
import { renderReport, type ReportHeader, type TargetReport } from './table.js';

const header: ReportHeader = { date: 'd', command: 'c', node: 'n', machine: 'm', settings: 's', concurrency: 16, calls1: 1, callsPerSession: 1, idleSessions: 200 };

function idle(rssMb: number, processes: number): { ok: IdleResult } {
  return { ok: { opened: 200, failedOpens: 0, rssBytes: rssMb * 2 ** 20, pssBytes: rssMb * 2 ** 20, processes } };
}

function goals(reports: TargetReport[]): string[] {
  return renderReport(header, reports)
    .split('\n')
    .filter((line) => line.includes('idle'));
}

test('shared idle memory is held to 1.3× direct', () => {
  const lines = goals([{ name: 'direct', idle: idle(100, 1) }, { name: 'switchboard shared', idle: idle(140, 2) }]);
  assert.ok(lines.includes('- switchboard shared, idle memory with 200 sessions ≤ 1.3× direct: 1.40× MISSES the goal'), lines.join('\n'));
});

test('cell 5: 200 idle per-session hosts that listed tools, tree RSS at most 1.5× direct and at most 2 processes', () => {
  const met = goals([{ name: 'direct', idle: idle(100, 1) }, { name: 'switchboard per-session', idle: idle(140, 2) }]);
  assert.ok(met.includes('- cell 5, switchboard per-session, 200 idle hosts that listed tools, tree RSS ≤ 1.5× direct: 1.40× meets the goal'), met.join('\n'));
  assert.ok(met.includes('- cell 5, switchboard per-session, 200 idle hosts that listed tools, processes ≤ 2: 2 meets the goal'), met.join('\n'));
  const missed = goals([{ name: 'direct', idle: idle(100, 1) }, { name: 'switchboard per-session', idle: idle(20_000, 201) }]);
  assert.ok(missed.includes('- cell 5, switchboard per-session, 200 idle hosts that listed tools, processes ≤ 2: 201 MISSES the goal'), missed.join('\n'));
});

test('cell 5 without an idle figure is not measured', () => {
  const lines = goals([{ name: 'direct', idle: idle(100, 1) }, { name: 'switchboard per-session', idle: { failed: 'boom' } }]);
  assert.ok(lines.includes('- cell 5, switchboard per-session, 200 idle hosts that listed tools, processes ≤ 2: not measured'), lines.join('\n'));
});
