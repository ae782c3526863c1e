/** @module A histogram with fixed buckets: per label set, cumulative `_bucket{le}` counts up to `+Inf`, `_sum` and `_count`. */

import type { Sample } from './exposition.js';
import { formatNumber } from './exposition.js';
import { FamilyBase } from './family-base.js';
import type { MetricDefinition } from './metric-family.js';
import type { LabelValues, SeriesLimits } from './series-table.js';
import { SeriesTable } from './series-table.js';

export interface HistogramDefinition<L extends string> extends MetricDefinition<L> {
  /** Upper bounds, finite and strictly increasing; `+Inf` is always added. */
  readonly buckets: readonly number[];
}

interface HistogramState {
  /** Observations per bucket, not cumulative; the last slot is `+Inf`. */
  readonly counts: number[];
  sum: number;
  count: number;
}

export class Histogram<L extends string = never> extends FamilyBase<L> {
  override readonly type = 'histogram';
  readonly buckets: readonly number[];
  readonly #series: SeriesTable<L, HistogramState>;

  constructor(definition: HistogramDefinition<L>, limits: SeriesLimits) {
    super(definition, { reservedLabels: ['le'], sampleSuffixes: ['_bucket', '_sum', '_count'] });
    const buckets = definition.buckets;
    if (buckets.length === 0) throw new Error(`histogram ${this.name}: no buckets`);
    buckets.forEach((bound, i) => {
      if (!Number.isFinite(bound)) throw new Error(`histogram ${this.name}: bucket ${bound} is not finite (+Inf is added by itself)`);
      if (i > 0 && bound <= (buckets[i - 1] as number)) throw new Error(`histogram ${this.name}: buckets must be strictly increasing`);
    });
    this.buckets = [...buckets];
    this.#series = new SeriesTable(this.labelNames, limits, () => ({ counts: new Array<number>(buckets.length + 1).fill(0), sum: 0, count: 0 }));
  }

  /** Records one observation (NaN is ignored: it would poison `_sum`). */
  observe(labels: LabelValues<L>, value: number): void {
    if (Number.isNaN(value)) return;
    const state = this.#series.get(labels);
    let slot = this.buckets.findIndex((bound) => value <= bound);
    if (slot === -1) slot = this.buckets.length;
    state.counts[slot] = (state.counts[slot] as number) + 1;
    state.sum += value;
    state.count += 1;
  }

  override samples(): Sample[] {
    const samples: Sample[] = [];
    for (const { labels, state } of this.#series.entries()) {
      let cumulative = 0;
      state.counts.forEach((count, i) => {
        cumulative += count;
        const le = i < this.buckets.length ? formatNumber(this.buckets[i] as number) : '+Inf';
        samples.push({ suffix: '_bucket', labels: [...labels, ['le', le]], value: cumulative });
      });
      samples.push({ suffix: '_sum', labels, value: state.sum });
      samples.push({ suffix: '_count', labels, value: state.count });
    }
    return samples;
  }
}
