/** @module Tests of the elicitation cells' table: goal checks (issue 15's bounds against the rows that ran), peer rows measured or `cannot`. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ROWS, type RowResult } from './elicitation-cell.js';
import { elicitationGoals, rowLine } from './elicitation-table.js';
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

function row(name: string): RowResult['row'] {
  const found = ROWS.find((candidate) => candidate.name === name);
  assert.ok(found, name);
  return found;
}

test('each peer has a row in every cell, compared with the cell\'s direct row (cell 3: the legacy host direct)', () => {
  const peers = ROWS.filter((candidate) => candidate.peer !== undefined);
  assert.deepEqual(
    peers.map((candidate) => `${candidate.cell} ${candidate.peer} ${candidate.server} vs ${candidate.base}`),
    [
      '1 mcp-proxy mcp-proxy + desk vs 2025-11-25 host, direct',
      '1 supergateway supergateway + desk vs 2025-11-25 host, direct',
      '2 mcp-proxy mcp-proxy + desk vs 2025-06-18 host, direct',
      '2 supergateway supergateway + desk vs 2025-06-18 host, direct',
      '3 mcp-proxy mcp-proxy + desk vs 2025-11-25 host, direct',
      '3 supergateway supergateway + desk vs 2025-11-25 host, direct',
      '4 mcp-proxy mcp-proxy + stateless desk vs 2026-07-28 host, direct (stateless desk)',
      '4 supergateway supergateway + stateless desk vs 2026-07-28 host, direct (stateless desk)',
    ],
  );
  assert.ok(peers.every((candidate) => ROWS.some((other) => other.name === candidate.base)));
});

test('a measured peer row shows its rate, its ratio to the direct row and its latencies', () => {
  const line = rowLine({ row: row('2025-11-25 host, supergateway'), single: load(80, 12.5, 0.8), multi: load(95, 150.25, 0.6) });
  assert.equal(line, '| 1 | 2025-11-25 host, supergateway | 80 | 0.80× | 12.50 / 25.00 | 95 | 0.60× | 150.25 / 300.50 | 1 | 2025-11-25 host, direct |');
});

test('a peer that cannot carry the round trip says so with the reason, in both host counts, escaped for markdown', () => {
  const failed = { failed: 'not measured' };
  const line = rowLine({ row: row('2025-06-18 host, mcp-proxy'), cannot: 'the tool answered "a | b"\n(-32601)', single: failed, multi: failed });
  assert.equal(line, '| 2 | 2025-06-18 host, mcp-proxy | cannot: the tool answered "a \\| b" (-32601) | — | — | cannot | — | — | — | 2025-06-18 host, direct |');
  assert.equal(line.split(' | ').length, 10);
});

test('peer rows are never the subject of a goal', () => {
  const peerFirst: RowResult[] = [
    { row: row('2025-11-25 host, mcp-proxy'), cannot: 'no', single: { failed: 'x' }, multi: { failed: 'x' } },
    { row: row('2026-07-28 host, supergateway, legacy upstream'), cannot: 'no', single: { failed: 'x' }, multi: { failed: 'x' } },
    { row: gateway, single: load(90, 4.5, 0.9), multi: load(210, 60, 0.85) },
    { row: row('2026-07-28 host, switchboard, legacy upstream (parked)'), single: load(80, 9, 0.75), multi: load(80, 9, 0.75) },
  ];
  const checks = elicitationGoals(peerFirst);
  assert.deepEqual(
    checks.map((check) => check.value),
    [0.9, undefined, 0.85, 0.75, 0.75],
  );
});
