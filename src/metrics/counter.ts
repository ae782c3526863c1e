/** @module A counter: a value per label set that only goes up. */

import type { Sample } from './exposition.js';
import { FamilyBase } from './family-base.js';
import type { MetricDefinition } from './metric-family.js';
import type { LabelValues, SeriesLimits } from './series-table.js';
import { SeriesTable } from './series-table.js';

export class Counter<L extends string = never> extends FamilyBase<L> {
  override readonly type = 'counter';
  readonly #series: SeriesTable<L, { value: number }>;

  constructor(definition: MetricDefinition<L>, limits: SeriesLimits) {
    super(definition, {
      checkName(name) {
        if (!name.endsWith('_total')) throw new Error(`counter ${name}: a counter's name ends with _total`);
      },
    });
    this.#series = new SeriesTable(this.labelNames, limits, () => ({ value: 0 }));
  }

  /** Adds `by` (default 1; finite and not negative) to the series of `labels`. */
  inc(labels: LabelValues<L>, by = 1): void {
    if (!Number.isFinite(by) || by < 0) throw new RangeError(`counter ${this.name}: cannot add ${by}`);
    this.#series.get(labels).value += by;
  }

  override samples(): Sample[] {
    return [...this.#series.entries()].map(({ labels, state }) => ({ suffix: '', labels, value: state.value }));
  }
}
