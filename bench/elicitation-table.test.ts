/** @module Tests of the elicitation cells' goal checks (issue 15's bounds against the rows that ran). */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ROWS, type RowResult } from './elicitation-cell.js';
import { elicitationGoals } from './elicitation-table.js';
import type { LoadSummary } from './table.js';

function load(callsPerSecond: number, p50Ms: number, callsVsDirect?: number): { ok: LoadSummary } {
  return { ok: { callsPerSecond, p50Ms, p99Ms: p50Ms * 2, cpuMicrosPerCall: 1, calls: 1, errors: 0, failedRuns: 0, timedOut: false, rounds: 1, ...(callsVsDirect === undefined ? {} : { callsVsDirect }) } };
}

const [direct, gateway] = ROWS as [RowResult['row'], RowResult['row']];

test('cell 1: the ratio at 1 and 16 sessions and the p50 over direct', () => {
  const rows: RowResult[] = [
    { row: direct, single: load(100, 3), multi: load(300, 40) },
    { row: gateway, single: load(90, 4.5, 0.9), multi: load(210, 60, 0.7) },
  ];
  const checks = elicitationGoals(rows);
  assert.deepEqual(
    checks.map((check) => check.met),
    [true, false, false],
  );
  assert.equal(checks[1]?.value, 1.5);
});

test('a goal whose rows failed is not measured, and goals of cells that did not run are left out', () => {
  const checks = elicitationGoals([{ row: gateway, single: { failed: 'start: boom' }, multi: { failed: 'start: boom' } }]);
  assert.equal(checks.length, 3);
  assert.ok(checks.every((check) => check.value === undefined && check.met === undefined));
});
