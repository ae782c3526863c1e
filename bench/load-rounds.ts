/** @module Bench load rounds: running servers take turns, round after round (order rotating), at 1 session and at N; each phase's result per round, or why it failed. */

import { setTimeout as sleep } from 'node:timers/promises';
import { runLoadPhase, type PhaseSpec } from './load-phase.js';
import type { BenchOptions } from './options.js';
import { memAvailableBytes } from './proc-tree.js';
import { emptyPhaseLog, type PhaseLog } from './summary.js';

/** A running server under load: where to reach it, and how to account for it. */
export interface LoadSubject {
  name: string;
  url: string;
  /** CPU consumed so far by everything that serves it (its process tree, or several). */
  cpuMicros(): number;
  /** Processes serving it now. */
  processes(): number;
  /** Set once it has died: how. */
  exitStatus(): string | undefined;
}

export interface SubjectLogs {
  single: PhaseLog;
  multi: PhaseLog;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Runs `rounds` rounds over `subjects`; each round every subject runs the 1-session phase, then the N-session one. */
export async function runLoadRounds(subjects: LoadSubject[], options: BenchOptions, rounds: number, log: (message: string) => void): Promise<Map<string, SubjectLogs>> {
  const logs = new Map<string, SubjectLogs>(subjects.map((subject) => [subject.name, { single: emptyPhaseLog(), multi: emptyPhaseLog() }]));
  const base = { warmupCalls: options.warmup, timeoutMs: options.phaseTimeoutMs, requestTimeoutMs: options.requestTimeoutMs };
  const specs: ['single' | 'multi', PhaseSpec][] = [
    ['single', { ...base, sessions: 1, callsPerSession: options.calls1 }],
    ['multi', { ...base, sessions: options.concurrency, callsPerSession: options.callsPerSession }],
  ];
  for (let round = 0; round < rounds; round++) {
    // Rotate the order each round so no subject always runs first or last.
    const order = subjects.map((_, i) => subjects[(i + round) % subjects.length] as LoadSubject);
    for (const subject of order) {
      const subjectLogs = logs.get(subject.name) as SubjectLogs;
      if (subject.exitStatus() !== undefined && subjectLogs.single.failures.length + subjectLogs.multi.failures.length > 0) continue; // death already reported
      for (const [key, spec] of specs) {
        const phaseLog = subjectLogs[key];
        try {
          if (memAvailableBytes() < options.minFreeMb * 2 ** 20) throw new Error(`skipped: machine MemAvailable below ${options.minFreeMb} MB`);
          const result = await runLoadPhase(subject.url, spec, () => subject.cpuMicros());
          phaseLog.byRound[round] = result;
          const rate = (result.calls * 1000) / result.elapsedMs;
          log(`round ${round + 1}/${rounds} ${subject.name} @${spec.sessions}: ${rate.toFixed(0)} calls/s, ${(result.cpuMicros / Math.max(1, result.calls)).toFixed(0)} µs CPU/call, ${subject.processes()} processes after${result.errors ? `, ${result.errors} errors` : ''}`);
        } catch (error) {
          // A dead server explains every later failure better than "fetch failed".
          await sleep(200);
          const failure = subject.exitStatus() ? `target ${subject.exitStatus()}` : reason(error);
          phaseLog.failures.push(failure);
          log(`round ${round + 1}/${rounds} ${subject.name} @${spec.sessions}: failed: ${failure}`);
        }
      }
    }
  }
  return logs;
}
