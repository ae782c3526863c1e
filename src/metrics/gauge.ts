/** @module A gauge: a value per label set that is set, or goes up and down. */

import type { Sample } from './exposition.js';
import { FamilyBase } from './family-base.js';
import type { MetricDefinition } from './metric-family.js';
import type { LabelValues, SeriesLimits } from './series-table.js';
import { SeriesTable } from './series-table.js';

export class Gauge<L extends string = never> extends FamilyBase<L> {
  override readonly type = 'gauge';
  readonly #series: SeriesTable<L, { value: number }>;

  constructor(definition: MetricDefinition<L>, limits: SeriesLimits) {
    super(definition);
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

  override samples(): Sample[] {
    return [...this.#series.entries()].map(({ labels, state }) => ({ suffix: '', labels, value: state.value }));
  }
}
