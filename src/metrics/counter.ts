/** @module A counter: a value per label set that only goes up. */

import type { Sample } from './exposition.js';
import type { MetricDefinition, MetricFamily } from './metric-family.js';
import { checkLabelNames, checkMetricName } from './metric-names.js';
import type { LabelValues, SeriesLimits } from './series-table.js';
import { SeriesTable } from './series-table.js';

export class Counter<L extends string = never> implements MetricFamily {
  readonly name: string;
  readonly help: string;
  readonly type = 'counter';
  readonly labelNames: readonly L[];
  readonly sampleNames: readonly string[];
  readonly #series: SeriesTable<L, { value: number }>;

  constructor(definition: MetricDefinition<L>, limits: SeriesLimits) {
    checkMetricName(definition.name);
    if (!definition.name.endsWith('_total')) throw new Error(`counter ${definition.name}: a counter's name ends with _total`);
    this.name = definition.name;
    this.help = definition.help;
    this.labelNames = definition.labelNames ?? [];
    checkLabelNames(this.name, this.labelNames);
    this.sampleNames = [this.name];
    this.#series = new SeriesTable(this.labelNames, limits, () => ({ value: 0 }));
  }

  /** Adds `by` (default 1; finite and not negative) to the series of `labels`. */
  inc(labels: LabelValues<L>, by = 1): void {
    if (!Number.isFinite(by) || by < 0) throw new RangeError(`counter ${this.name}: cannot add ${by}`);
    this.#series.get(labels).value += by;
  }

  samples(): Sample[] {
    return [...this.#series.entries()].map(({ labels, state }) => ({ suffix: '', labels, value: state.value }));
  }
}
