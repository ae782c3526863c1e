/** @module Bench cell 6 printer: the markdown section of the idle-sessions-at-scale cell (gateway RSS and heap per idle session) with its goal line. */

import { PER_SESSION_GOAL_BYTES, type IdleScaleCell, type IdleScaleFigures } from './idle-scale-cell.js';
import type { ReportHeader } from './table.js';

/** Per idle session, from the samples before and after opening them. */
export interface PerSession {
  /** RSS growth after forced collections, per session: the figure the goal is about. */
  rssBytes: number;
  /** RSS growth as read, without forcing a collection. */
  rssUncollectedBytes: number;
  heapUsedBytes: number;
  externalBytes: number;
}

export function perSession(figures: IdleScaleFigures): PerSession {
  const n = figures.opened;
  const { before, after } = figures;
  return {
    rssBytes: (after.rssCollectedBytes - before.rssCollectedBytes) / n,
    rssUncollectedBytes: (after.rssBytes - before.rssBytes) / n,
    heapUsedBytes: (after.heapUsedBytes - before.heapUsedBytes) / n,
    externalBytes: (after.externalBytes - before.externalBytes) / n,
  };
}

/** The goal line: gateway RSS per idle session at most 8 KB. */
export function idleScaleGoal(cell: IdleScaleCell): string {
  const label = `cell 6, gateway RSS per idle session ≤ ${PER_SESSION_GOAL_BYTES / 1024} KB`;
  if (!('ran' in cell)) return `- ${label}: not measured`;
  const kb = perSession(cell.ran).rssBytes / 1024;
  return `- ${label}: ${kb.toFixed(1)} KB ${kb * 1024 <= PER_SESSION_GOAL_BYTES ? 'meets' : 'MISSES'} the goal`;
}

const mb = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);
const kb = (bytes: number): string => (bytes / 1024).toFixed(1);

export function renderIdleScaleSection(header: Pick<ReportHeader, 'date' | 'command' | 'node' | 'machine'>, cell: IdleScaleCell): string {
  const lines = [`- Date: ${header.date}`, `- Command: \`${header.command}\``, `- Node: ${header.node}; machine: ${header.machine}`];
  if ('failed' in cell) return `${[...lines, `- Failed: ${cell.failed.replaceAll('\n', ' ')}`, '', 'Goal (issue 15):', '', idleScaleGoal(cell)].join('\n')}\n`;
  const figures = cell.ran;
  const per = perSession(figures);
  const { before, after } = figures;
  lines.push(
    `- Settings: ${figures.requested} sessions requested (initialize, notifications/initialized, one tools/list each), opened in ${figures.openSeconds.toFixed(1)} s`,
    '',
    '| sessions | gateway RSS MB, before → after (collected) | RSS KB/session (collected) | RSS KB/session (as read) | V8 heap used MB, before → after | heap KB/session | external KB/session |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${figures.opened} | ${mb(before.rssCollectedBytes)} → ${mb(after.rssCollectedBytes)} | ${kb(per.rssBytes)} | ${kb(per.rssUncollectedBytes)} | ${mb(before.heapUsedBytes)} → ${mb(after.heapUsedBytes)} | ${kb(per.heapUsedBytes)} | ${kb(per.externalBytes)} |`,
    '',
    'Goal (issue 15):',
    '',
    idleScaleGoal(cell),
  );
  const notes: string[] = [];
  if (figures.opened < figures.requested) notes.push(`- only ${figures.opened}/${figures.requested} sessions opened (${figures.stoppedEarly ?? '?'})`);
  if (figures.failedOpens > 0) notes.push(`- ${figures.failedOpens} sessions failed to open (first: ${figures.firstError ?? '?'})`);
  if (notes.length > 0) lines.push('', 'Notes:', '', ...notes);
  return `${lines.join('\n')}\n`;
}
