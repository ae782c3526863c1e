/** @module Health of one upstream: last outcome, failure count, the backoff before the next try, and the era it speaks. */

import type { UpstreamSpec } from '../config/types.js';
import type { Clock } from '../core/clock.js';
import { systemClock } from '../core/clock.js';
import { redactUrlsIn } from '../protocol/redact-url.js';
import type { Era } from '../protocol/revisions.js';
import type { UpstreamReport } from '../ports/host-contracts.js';

export class UpstreamStatus {
  readonly spec: UpstreamSpec;
  report: UpstreamReport;
  /** The era the upstream spoke when last connected (undefined: not known, or to be detected again). */
  era: Era | undefined;
  #failures = 0;
  #retryAt = 0;
  #initialDelayMs: number;
  #maxDelayMs: number;
  #clock: Clock;

  constructor(spec: UpstreamSpec, retry: { initialDelayMs: number; maxDelayMs: number }, clock: Clock = systemClock) {
    this.spec = spec;
    this.#clock = clock;
    this.#initialDelayMs = retry.initialDelayMs;
    this.#maxDelayMs = retry.maxDelayMs;
    this.report = { name: spec.name, transport: spec.kind, state: 'pending' };
  }

  /** A reload's backoff: it holds from the next failure on. */
  setRetry(retry: { initialDelayMs: number; maxDelayMs: number }): void {
    this.#initialDelayMs = retry.initialDelayMs;
    this.#maxDelayMs = retry.maxDelayMs;
  }

  get tried(): boolean {
    return this.report.state !== 'pending';
  }

  /** Milliseconds left before another connect attempt is allowed (0 = now). */
  backoffRemaining(): number {
    return Math.max(0, this.#retryAt - this.#clock.now());
  }

  succeeded(details: Omit<UpstreamReport, 'name' | 'transport' | 'state'>): void {
    this.#failures = 0;
    this.#retryAt = 0;
    this.report = { name: this.spec.name, transport: this.spec.kind, state: 'up', ...details };
    if (details.era !== undefined) this.era = details.era;
  }

  /** The upstream may have changed era (it forgot our session, or refused our era): the next connect detects it again. */
  forgetEra(): void {
    this.era = undefined;
  }

  /** Records a failed attempt (its reason with any URL redacted: it is served and logged); returns the delay before the next one. */
  failed(error: string): number {
    this.#failures += 1;
    const delay = Math.min(this.#maxDelayMs, this.#initialDelayMs * 2 ** (this.#failures - 1));
    this.#retryAt = this.#clock.now() + delay;
    this.report = {
      ...this.report,
      state: 'down',
      error: redactUrlsIn(error),
      nextRetryAt: new Date(this.#retryAt).toISOString(),
    };
    return delay;
  }
}
