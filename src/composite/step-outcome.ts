/** @module How one step ended: the outcome shared by the runner, the journal and the step kinds. */

/**
 * - completed: the step ran; `output` is what later templates see as `steps.<id>`, `recorded` what the run record
 *   keeps of it when that differs (an elicit step's secret fields "[redacted]");
 * - skipped: its condition was false;
 * - failed: it could not do its job; the run ends with an isError result naming the step;
 * - aborted: the run stopped under it (host cancel, total timeout, another step's failure or stop);
 * - stop: an elicit outcome chose `abort` or `skip-remaining`; `reason` says who answered what.
 */
export type StepOutcome =
  | { kind: 'completed'; output: unknown; recorded?: unknown }
  | { kind: 'skipped'; reason: string }
  | { kind: 'failed'; reason: string }
  | { kind: 'aborted'; reason: string }
  | { kind: 'stop'; action: 'abort' | 'skip-remaining'; output: unknown; recorded?: unknown; reason: string };

/** Why a signal aborted, as text for a record. */
export function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason.message;
  return typeof reason === 'string' ? reason : 'the run stopped';
}
