/** @module Bench table printer: the markdown results section (header facts, results table, goals check, notes). */

import type { IdleResult } from './idle-phase.js';

export interface LoadSummary {
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  cpuMicrosPerCall: number;
  /** Median over rounds of (calls/s of this target ÷ direct's in the same round). */
  callsVsDirect?: number;
  /** Median over rounds of (CPU per call of this target ÷ direct's in the same round). */
  cpuVsDirect?: number;
  calls: number;
  /** Failed calls within the phase runs that measured something. */
  errors: number;
  /** Phase runs (rounds) that failed outright. */
  failedRuns: number;
  firstError?: string;
  timedOut: boolean;
  rounds: number;
}

/** What a phase gave: a value, or why it has none. */
export type Outcome<T> = { ok: T } | { failed: string };

export interface TargetReport {
  name: string;
  single?: Outcome<LoadSummary>;
  multi?: Outcome<LoadSummary>;
  idle?: Outcome<IdleResult>;
}

export interface ReportHeader {
  date: string;
  command: string;
  node: string;
  machine: string;
  settings: string;
  concurrency: number;
  calls1: number;
  callsPerSession: number;
  idleSessions: number;
}

const DASH = '—';

function value<T>(outcome: Outcome<T> | undefined): T | undefined {
  return outcome && 'ok' in outcome ? outcome.ok : undefined;
}

function fixed(n: number | undefined, digits: number): string {
  return n === undefined || !Number.isFinite(n) ? DASH : n.toFixed(digits);
}

function times(r: number | undefined): string {
  return r === undefined || !Number.isFinite(r) ? DASH : `${r.toFixed(2)}×`;
}

function ratio(n: number | undefined, base: number | undefined): number | undefined {
  return n === undefined || base === undefined || !(base > 0) ? undefined : n / base;
}

/** A load ratio to direct: the per-round median when rounds paired up, else the ratio of the medians. */
function loadRatio(load: LoadSummary | undefined, base: LoadSummary | undefined, metric: 'calls' | 'cpu'): number | undefined {
  if (metric === 'calls') return load?.callsVsDirect ?? ratio(load?.callsPerSecond, base?.callsPerSecond);
  return load?.cpuVsDirect ?? ratio(load?.cpuMicrosPerCall, base?.cpuMicrosPerCall);
}

function cleanCell(text: string): string {
  return text.replaceAll('|', '\\|').replace(/\s+/g, ' ').slice(0, 160);
}

function loadCells(outcome: Outcome<LoadSummary> | undefined, base: LoadSummary | undefined): string[] {
  if (outcome && 'failed' in outcome) return [cleanCell(`failed: ${outcome.failed}`), DASH, DASH];
  const load = value(outcome);
  return [fixed(load?.callsPerSecond, 0), times(loadRatio(load, base, 'calls')), load ? `${fixed(load.p50Ms, 2)} / ${fixed(load.p99Ms, 2)}` : DASH];
}

/** The one reason shared by every phase of a target that never ran (e.g. it failed to start). */
function commonFailure(report: TargetReport): string | undefined {
  const reasons = [report.single, report.multi, report.idle].map((outcome) => (outcome && 'failed' in outcome ? outcome.failed.replace(/^start: /, '') : undefined));
  return reasons.every((text) => text !== undefined && text === reasons[0]) ? reasons[0] : undefined;
}

function row(report: TargetReport, direct: TargetReport | undefined): string {
  const failure = commonFailure(report);
  if (failure !== undefined) return `| ${report.name} | ${cleanCell(`failed: ${failure}`)} |${' — |'.repeat(9)}`;
  const multi = value(report.multi);
  const idle = value(report.idle);
  const baseIdle = value(direct?.idle);
  const cells = [
    report.name,
    ...loadCells(report.single, value(direct?.single)),
    ...loadCells(report.multi, value(direct?.multi)),
    report.multi && 'failed' in report.multi ? DASH : fixed(multi?.cpuMicrosPerCall, 0),
    times(loadRatio(multi, value(direct?.multi), 'cpu')),
    report.idle && 'failed' in report.idle ? cleanCell(`failed: ${report.idle.failed}`) : idle ? `${fixed(idle.rssBytes / 2 ** 20, 1)} (PSS ${fixed(idle.pssBytes / 2 ** 20, 1)}, ${idle.processes} proc)` : DASH,
    times(ratio(idle?.rssBytes, baseIdle?.rssBytes)),
  ];
  return `| ${cells.join(' | ')} |`;
}

/** Issue 15's idle-memory bounds: shared mode's tree RSS against direct; cell 5, per-session hosts that only listed tools. */
export const SHARED_IDLE_GOAL = 1.3;
export const PER_SESSION_IDLE_GOAL = 1.5;
export const PER_SESSION_IDLE_PROCESSES = 2;

function goalLines(reports: TargetReport[], concurrency: number, idleSessions: number): string[] {
  const direct = reports.find((report) => report.name === 'direct');
  const base = { single: value(direct?.single), multi: value(direct?.multi), idle: value(direct?.idle) };
  const check = (target: string, label: string, pick: (report: TargetReport) => number | undefined, limit: number, atMost: boolean): string => {
    const report = reports.find((candidate) => candidate.name === target);
    const r = report && pick(report);
    if (r === undefined || !Number.isFinite(r)) return `- ${target}, ${label}: not measured`;
    return `- ${target}, ${label}: ${r.toFixed(2)}× ${(atMost ? r <= limit : r >= limit) ? 'meets' : 'MISSES'} the goal`;
  };
  const lines: string[] = [];
  for (const target of ['switchboard per-session', 'switchboard shared']) {
    lines.push(check(target, 'calls/s @1 ≥ 0.85× direct', (r) => loadRatio(value(r.single), base.single, 'calls'), 0.85, false));
    lines.push(check(target, `calls/s @${concurrency} ≥ 0.8× direct`, (r) => loadRatio(value(r.multi), base.multi, 'calls'), 0.8, false));
    lines.push(check(target, 'CPU per call ≤ 1.4× direct', (r) => loadRatio(value(r.multi), base.multi, 'cpu'), 1.4, true));
  }
  const idleRss = (r: TargetReport): number | undefined => ratio(value(r.idle)?.rssBytes, base.idle?.rssBytes);
  lines.push(check('switchboard shared', `idle memory with ${idleSessions} sessions ≤ ${SHARED_IDLE_GOAL}× direct`, idleRss, SHARED_IDLE_GOAL, true));
  const cell5 = `cell 5, switchboard per-session, ${idleSessions} idle hosts that listed tools`;
  lines.push(check('switchboard per-session', `tree RSS ≤ ${PER_SESSION_IDLE_GOAL}× direct`, idleRss, PER_SESSION_IDLE_GOAL, true).replace('- switchboard per-session,', `- ${cell5},`));
  const processes = value(reports.find((report) => report.name === 'switchboard per-session')?.idle)?.processes;
  const label = `${cell5}, processes ≤ ${PER_SESSION_IDLE_PROCESSES}`;
  lines.push(processes === undefined ? `- ${label}: not measured` : `- ${label}: ${processes} ${processes <= PER_SESSION_IDLE_PROCESSES ? 'meets' : 'MISSES'} the goal`);
  return lines;
}

function noteLines(reports: TargetReport[], concurrency: number, idleSessions: number): string[] {
  const notes: string[] = [];
  for (const report of reports) {
    for (const [label, outcome] of [['@1', report.single], [`@${concurrency}`, report.multi]] as const) {
      const load = value(outcome);
      if (load && load.errors + load.failedRuns > 0) {
        const what = [load.failedRuns > 0 ? `${load.failedRuns} of ${load.failedRuns + load.rounds} rounds failed` : '', load.errors > 0 ? `${load.errors} failed calls` : ''];
        notes.push(`- ${report.name} ${label}: ${what.filter(Boolean).join(', ')} (first error: ${cleanCell(load.firstError ?? '?')})`);
      }
      if (load?.timedOut) notes.push(`- ${report.name} ${label}: hit the phase time limit (${load.calls} calls measured)`);
    }
    const idle = value(report.idle);
    if (idle && idle.opened < idleSessions) notes.push(`- ${report.name} idle: only ${idle.opened}/${idleSessions} sessions opened (${cleanCell(idle.stoppedEarly ?? '?')})`);
    if (idle && idle.failedOpens > 0) notes.push(`- ${report.name} idle: ${idle.failedOpens} sessions failed to open (first: ${cleanCell(idle.firstError ?? '?')})`);
  }
  return notes;
}

export function renderReport(header: ReportHeader, reports: TargetReport[]): string {
  const direct = reports.find((report) => report.name === 'direct');
  const n = header.concurrency;
  const lines = [
    `- Date: ${header.date}`,
    `- Command: \`${header.command}\``,
    `- Node: ${header.node}; machine: ${header.machine}`,
    `- Settings: ${header.settings}`,
    '',
    `| target | calls/s @1 | vs direct | p50 / p99 ms @1 | calls/s @${n} | vs direct | p50 / p99 ms @${n} | server CPU µs/call @${n} | vs direct | idle RSS MB (PSS, processes), ${header.idleSessions} sessions | vs direct |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...reports.map((report) => row(report, direct)),
    '',
    `Goals for Switchboard (from the issues): ≥0.85× direct calls/s at 1 session, ≥0.8× at 16, server CPU per call ≤1.4× direct; idle memory with 200 sessions ≤${SHARED_IDLE_GOAL}× direct in shared mode; cell 5 (issue 15): 200 idle per-session hosts that listed tools, tree RSS ≤${PER_SESSION_IDLE_GOAL}× direct and at most ${PER_SESSION_IDLE_PROCESSES} processes.`,
    '',
    ...goalLines(reports, header.concurrency, header.idleSessions),
  ];
  const notes = noteLines(reports, header.concurrency, header.idleSessions);
  if (notes.length > 0) lines.push('', 'Notes:', '', ...notes);
  return `${lines.join('\n')}\n`;
}
