/** @module Bench elicitation cells, printed: the markdown section (header facts, one table of every row with the peers' `cannot` rows, the goals of issue 15 checked). */

import type { ElicitationFigures, RowResult } from './elicitation-cell.js';
import type { ReportHeader, LoadSummary, Outcome } from './table.js';

const DASH = '—';

function ok(outcome: Outcome<LoadSummary> | undefined): LoadSummary | undefined {
  return outcome && 'ok' in outcome ? outcome.ok : undefined;
}

function fixed(n: number | undefined, digits: number): string {
  return n === undefined || !Number.isFinite(n) ? DASH : n.toFixed(digits);
}

function times(r: number | undefined): string {
  return r === undefined || !Number.isFinite(r) ? DASH : `${r.toFixed(2)}×`;
}

function cleanCell(text: string, limit: number): string {
  return text.replaceAll('|', '\\|').replace(/\s+/g, ' ').slice(0, limit);
}

function loadCells(outcome: Outcome<LoadSummary>): string[] {
  if ('failed' in outcome) return [cleanCell(`failed: ${outcome.failed}`, 160), DASH, DASH];
  const load = outcome.ok;
  const errors = load.errors > 0 ? ` (${load.errors} errors)` : '';
  return [`${fixed(load.callsPerSecond, 0)}${errors}`, times(load.callsVsDirect), `${fixed(load.p50Ms, 2)} / ${fixed(load.p99Ms, 2)}`];
}

/** One goal of issue 15: what is compared, the measured value, and whether it meets the bound. */
export interface GoalCheck {
  text: string;
  value: number | undefined;
  met: boolean | undefined;
}

/** The cell's Switchboard row (`gateway`) or its direct row; peer rows are never a goal's subject. */
function find(rows: RowResult[], cell: number, gateway: boolean): RowResult | undefined {
  return rows.find((result) => result.row.cell === cell && result.row.peer === undefined && (result.row.base !== undefined) === gateway);
}

function atLeast(text: string, value: number | undefined, bound: number): GoalCheck {
  return { text: `${text} ≥ ${bound}×`, value, met: value === undefined ? undefined : value >= bound };
}

/** The goals of issue 15 against the rows that ran (a goal whose rows did not run is left out). */
export function elicitationGoals(rows: RowResult[]): GoalCheck[] {
  const checks: GoalCheck[] = [];
  const one = find(rows, 1, true);
  const oneDirect = find(rows, 1, false);
  if (one) {
    checks.push(atLeast('cell 1, round trips/s @1 vs direct', ok(one.single)?.callsVsDirect, 0.85));
    const p50 = ok(one.single)?.p50Ms;
    const base = ok(oneDirect?.single)?.p50Ms;
    const extra = p50 === undefined || base === undefined ? undefined : p50 - base;
    checks.push({ text: 'cell 1, p50 @1 − direct p50 ≤ 1 ms', value: extra, met: extra === undefined ? undefined : extra <= 1 });
    checks.push(atLeast('cell 1, round trips/s @16 vs direct', ok(one.multi)?.callsVsDirect, 0.8));
  }
  const two = find(rows, 2, true);
  if (two?.alsoSingle && two.alsoMulti) {
    checks.push(atLeast('cell 2, round trips/s @1 vs cell 1 through the gateway (within 10%)', ok(two.alsoSingle)?.callsVsDirect, 0.9));
    checks.push(atLeast('cell 2, round trips/s @16 vs cell 1 through the gateway (within 10%)', ok(two.alsoMulti)?.callsVsDirect, 0.9));
  }
  const three = find(rows, 3, true);
  if (three && one) {
    checks.push(atLeast('cell 3, round trips/s @1 vs cell 1 through the gateway', ok(three.single)?.callsVsDirect, 0.7));
    checks.push(atLeast('cell 3, round trips/s @16 vs cell 1 through the gateway', ok(three.multi)?.callsVsDirect, 0.7));
  }
  const four = find(rows, 4, true);
  if (four) {
    checks.push(atLeast('cell 4, round trips/s @1 vs direct', ok(four.single)?.callsVsDirect, 0.85));
    checks.push(atLeast('cell 4, round trips/s @16 vs direct', ok(four.multi)?.callsVsDirect, 0.85));
  }
  return checks;
}

function goalLine(check: GoalCheck): string {
  const value = check.value === undefined ? 'not measured' : check.text.includes('ms') ? `${check.value >= 0 ? '+' : ''}${check.value.toFixed(2)} ms` : times(check.value);
  const verdict = check.met === undefined ? '' : check.met ? ' meets the goal' : ' MISSES the goal';
  return `- ${check.text}: ${value}${verdict}`;
}

/** One row of the table: measured figures, or for a peer that cannot carry the round trip, what it did instead. */
export function rowLine(result: RowResult): string {
  const { row } = result;
  if (result.cannot !== undefined) {
    const cells = [cleanCell(`cannot: ${result.cannot}`, 240), DASH, DASH, 'cannot', DASH, DASH, DASH];
    return `| ${row.cell} | ${row.name} | ${cells.join(' | ')} | ${row.base ?? DASH} |`;
  }
  const cpu = ok(result.multi);
  return `| ${row.cell} | ${row.name} | ${loadCells(result.single).join(' | ')} | ${loadCells(result.multi).join(' | ')} | ${fixed(cpu && cpu.cpuMicrosPerCall, 0)} | ${row.base ?? DASH} |`;
}

/** The elicitation section of docs/benchmarks.md (without its heading). */
export function renderElicitationSection(header: Pick<ReportHeader, 'date' | 'command' | 'node' | 'machine'>, figures: ElicitationFigures): string {
  const { sessions } = figures;
  const lines = [
    `- Date: ${header.date}`,
    `- Command: \`${header.command}\``,
    `- Node: ${header.node}; machine: ${header.machine}`,
    `- Settings: ${figures.rounds} round(s); @1: ${figures.calls1} round trips; @${sessions}: ${sessions}×${figures.callsPerSession}; peer rows @1: ${figures.peerCalls1}, @${sessions}: ${sessions}×${figures.peerCallsPerSession}; the cells took ${figures.seconds.toFixed(0)} s`,
    '',
    `| cell | host, path | round trips/s @1 | vs | p50 / p99 ms @1 | round trips/s @${sessions} | vs | p50 / p99 ms @${sessions} | server CPU µs/round trip @${sessions} | compared with |`,
    '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...figures.rows.map(rowLine),
    '',
    'Goals (issue 15):',
    '',
    ...elicitationGoals(figures.rows).map(goalLine),
  ];
  return `${lines.join('\n')}\n`;
}
