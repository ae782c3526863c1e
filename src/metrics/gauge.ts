/** @module A gauge: a value per label set that is set, or goes up and down. */

import type { Sample } from './exposition.js';
import type { MetricDefinition, MetricFamily } from './metric-family.js';
import { checkLabelNames, checkMetricName } from './metric-names.js';
import type { LabelValues, SeriesLimits } from './series-table.js';
import { SeriesTable } from './series-table.js';

export class Gauge<L extends string = never> implements MetricFamily {
  readonly name: string;
  readonly help: string;
  readonly type = 'gauge';
  readonly labelNames: readonly L[];
  readonly sampleNames: readonly string[];
  readonly #series: SeriesTable<L, { value: number }>;

  constructor(definition: MetricDefinition<L>, limits: SeriesLimits) {
    checkMetricName(definition.name);
    this.name = definition.name;
    this.help = definition.help;
    this.labelNames = definition.labelNames ?? [];
    checkLabelNames(this.name, this.labelNames);
    this.sampleNames = [this.name];
    this.#series = new SeriesTable(this.labelNames, limits, () => ({ value: 0 }));
  }

  set(labels: LabelValues<L>, value: number): void {
    this.#series.get(labels).value = value;
  }

  inc(labels: LabelValues<L>, by = 1): void {
    this.#series.get(labels).value += by;
  }

  dec(labels: LabelValues<L>, by = 1): void {
    this.#series.get(labels).value -= by;
  }

  samples(): Sample[] {
    return [...this.#series.entries()].map(({ labels, state }) => ({ suffix: '', labels, value: state.value }));
  }
}
