/** @module What every kind of metric tells the registry: its name, help, type, label names and current samples. */

import type { MetricType, Sample } from './exposition.js';

/** How a metric is declared. */
export interface MetricDefinition<L extends string> {
  /** A valid metric name; a counter's ends with `_total`. */
  readonly name: string;
  /** One line saying what is measured (shown as `# HELP`). */
  readonly help: string;
  /** The label names, in the order they are written (none by default). */
  readonly labelNames?: readonly L[];
}

export interface MetricFamily {
  readonly name: string;
  readonly help: string;
  readonly type: MetricType;
  readonly labelNames: readonly string[];
  /** Every sample name the family writes: its name, or for a histogram the `_bucket`, `_sum` and `_count` names. */
  readonly sampleNames: readonly string[];
  /** The samples as of now, in a stable order. */
  samples(): Sample[];
}
