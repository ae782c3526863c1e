/** @module Bench cluster cell printer: the markdown section of the cluster cell (3 instances vs 1, operator answer latency, cost of a question), or why it was skipped. */

import type { ClusterCell, ClusterFigures, ClusterLoad } from './cluster-cell.js';
import type { QuestionCost } from './question-cost.js';
import { ratioOf } from './stats.js';
import type { LoadSummary, Outcome, ReportHeader } from './table.js';

/** The issue's goal: an answer given on another instance reaches the call at most this much later (p50) than one given where the call is. */
export const OTHER_INSTANCE_GOAL_MS = 20;

const DASH = '—';

function fixed(n: number | undefined, digits: number): string {
  return n === undefined || !Number.isFinite(n) ? DASH : n.toFixed(digits);
}

function times(r: number | undefined): string {
  return r === undefined || !Number.isFinite(r) ? DASH : `${r.toFixed(2)}×`;
}

function clean(text: string): string {
  return text.replaceAll('|', '\\|').replace(/\s+/g, ' ').slice(0, 160);
}

function value(outcome: Outcome<LoadSummary>): LoadSummary | undefined {
  return 'ok' in outcome ? outcome.ok : undefined;
}

/** Calls/s and latency of a phase; the ratio to one instance is the median of the per-round ratios, else the ratio of the medians. */
function loadCells(outcome: Outcome<LoadSummary>, base: Outcome<LoadSummary>): string[] {
  if ('failed' in outcome) return [clean(`failed: ${outcome.failed}`), DASH, DASH];
  const load = outcome.ok;
  return [fixed(load.callsPerSecond, 0), times(load.callsVsDirect ?? ratioOf(load.callsPerSecond, value(base)?.callsPerSecond)), `${fixed(load.p50Ms, 2)} / ${fixed(load.p99Ms, 2)}`];
}

function loadRow(load: ClusterLoad, base: ClusterLoad): string {
  const multi = value(load.multi);
  const cells = [
    load.instances === 1 ? '1 instance' : `${load.instances} instances`,
    ...loadCells(load.single, base.single),
    ...loadCells(load.multi, base.multi),
    fixed(multi?.cpuMicrosPerCall, 0),
    times(multi?.cpuVsDirect ?? ratioOf(multi?.cpuMicrosPerCall, value(base.multi)?.cpuMicrosPerCall)),
  ];
  return `| ${cells.join(' | ')} |`;
}

function costLine(cost: QuestionCost): string {
  const rows = Object.entries(cost.tables).map(([table, { inserted, updated, deleted }]) => {
    const parts = [inserted ? `${fixed(inserted, 2)} inserted` : '', updated ? `${fixed(updated, 2)} updated` : '', deleted ? `${fixed(deleted, 2)} deleted` : ''];
    return `\`${table}\` ${parts.filter(Boolean).join(', ')}`;
  });
  return `- Database cost of one question (mean over the ${cost.questions} questions of the latency run, on a fresh schema): rows ${rows.join('; ') || 'none'}; ${fixed(cost.writeTransactions, 2)} write transactions (transaction ids handed out, heartbeats taken out); ${fixed(cost.notifications, 2)} notifications on the schema's change channel.`;
}

function latencyLines(figures: ClusterFigures): string[] {
  const { latency } = figures;
  if ('failed' in latency) return [`- Operator answer latency: failed: ${clean(latency.failed)}`];
  const { same, other, failures } = latency.ok;
  const extra = other.p50 - same.p50;
  const lines = [
    'Operator answer → tool result (ms, from sending `POST /api/questions/{id}/answer` to the host receiving the result; same and other alternate):',
    '',
    '| answered on | samples | p50 | p95 |',
    '| --- | ---: | ---: | ---: |',
    `| the instance holding the call | ${same.samples} | ${fixed(same.p50, 2)} | ${fixed(same.p95, 2)} |`,
    `| another instance | ${other.samples} | ${fixed(other.p50, 2)} | ${fixed(other.p95, 2)} |`,
    '',
    `- Another instance − the same, p50: ${extra >= 0 ? '+' : ''}${fixed(extra, 2)} ms; goal (issue 13) under ${OTHER_INSTANCE_GOAL_MS} ms: ${extra < OTHER_INSTANCE_GOAL_MS ? 'meets' : 'MISSES'} the goal`,
  ];
  if (failures.length > 0) lines.push(`- ${failures.length} failed samples (first: ${clean(failures[0] as string)})`);
  return lines;
}

/** The cluster cell's results (without a heading): the run's facts, then its figures or why it was skipped. */
export function renderClusterSection(header: ReportHeader, cell: ClusterCell): string {
  const facts = [`- Date: ${header.date}`, `- Command: \`${header.command}\``, `- Node: ${header.node}; machine: ${header.machine}`];
  if ('skipped' in cell) return `${[...facts, `- Skipped: ${cell.skipped}`].join('\n')}\n`;
  const figures = cell.ran;
  const n = header.concurrency;
  const lines = [
    ...facts,
    `- Setup: \`switchboard serve\` ×3 and ×1, each cluster on a fresh schema of PostgreSQL ${figures.postgres}, behind haproxy (round robin, no stickiness); upstreams the echo upstream and the incident desk, both \`sharing: shared\`; ${figures.rounds} load round(s) (@1: ${header.calls1} calls, @${n}: ${n}×${header.callsPerSession}); the cell took ${fixed(figures.seconds, 0)} s.`,
    '',
    `| cluster | calls/s @1 | vs 1 instance | p50 / p99 ms @1 | calls/s @${n} | vs 1 instance | p50 / p99 ms @${n} | CPU µs/call @${n} (gateways, upstreams, haproxy) | vs 1 instance |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...figures.loads.map((load) => loadRow(load, figures.loads[0] as ClusterLoad)),
    '',
    ...latencyLines(figures),
    'ok' in figures.cost ? costLine(figures.cost.ok) : `- Database cost of one question: failed: ${clean(figures.cost.failed)}`,
  ];
  return `${lines.join('\n')}\n`;
}
