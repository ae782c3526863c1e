/** @module Bench summary: folds the rounds of one load phase into a table row, with per-round ratios to direct. */

import type { PhaseResult } from './load-phase.js';
import { median, percentile } from './stats.js';
import type { LoadSummary, Outcome } from './table.js';

/** The runs of one phase of one target: the result of each round (undefined where it failed), and the failures. */
export interface PhaseLog {
  byRound: (PhaseResult | undefined)[];
  failures: string[];
}

export function emptyPhaseLog(): PhaseLog {
  return { byRound: [], failures: [] };
}

function usable(result: PhaseResult | undefined): result is PhaseResult {
  return result !== undefined && result.calls > 0;
}

const rate = (result: PhaseResult): number => (result.calls * 1000) / result.elapsedMs;
const cpuPerCall = (result: PhaseResult): number => result.cpuMicros / result.calls;

/** Median over the rounds both ran of (target / direct) in the same round: slow drifts of the shared machine cancel out. */
function roundRatio(log: PhaseLog, direct: PhaseLog, metric: (result: PhaseResult) => number): number | undefined {
  const ratios: number[] = [];
  log.byRound.forEach((result, round) => {
    const base = direct.byRound[round];
    if (usable(result) && usable(base) && metric(base) > 0) ratios.push(metric(result) / metric(base));
  });
  return ratios.length > 0 ? median(ratios) : undefined;
}

export function summarize(log: PhaseLog, direct: PhaseLog | undefined): Outcome<LoadSummary> {
  const results = log.byRound.filter(usable);
  if (results.length === 0) return { failed: log.failures[0] ?? log.byRound.find((result) => result?.firstError)?.firstError ?? 'no call succeeded' };
  const latencies = results.flatMap((result) => result.latenciesMs);
  const firstError = log.failures[0] ?? results.find((result) => result.firstError)?.firstError;
  const callsVsDirect = direct && roundRatio(log, direct, rate);
  const cpuVsDirect = direct && roundRatio(log, direct, cpuPerCall);
  return {
    ok: {
      callsPerSecond: median(results.map(rate)),
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      cpuMicrosPerCall: median(results.map(cpuPerCall)),
      ...(callsVsDirect === undefined ? {} : { callsVsDirect }),
      ...(cpuVsDirect === undefined ? {} : { cpuVsDirect }),
      calls: latencies.length,
      errors: results.reduce((sum, result) => sum + result.errors, 0),
      failedRuns: log.failures.length,
      ...(firstError === undefined ? {} : { firstError }),
      timedOut: results.some((result) => result.timedOut),
      rounds: results.length,
    },
  };
}
