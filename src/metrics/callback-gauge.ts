/** @module A gauge computed at scrape time by a callback (memory in use, upstreams up): nothing is stored between scrapes. */

import type { Sample } from './exposition.js';
import { FamilyBase } from './family-base.js';
import type { MetricDefinition } from './metric-family.js';
import type { LabelPairs, LabelValues, SeriesLimits } from './series-table.js';
import { labelPairs } from './series-table.js';

/** What the callback returns: one value (a metric without labels), or a value per label set. */
export type GaugeReading<L extends string> = number | readonly { readonly labels: LabelValues<L>; readonly value: number }[];

export interface CallbackGaugeDefinition<L extends string> extends MetricDefinition<L> {
  /** Called at every scrape; must be cheap and synchronous. */
  collect(): GaugeReading<L>;
}

export class CallbackGauge<L extends string = never> extends FamilyBase<L> {
  override readonly type = 'gauge';
  readonly #collect: () => GaugeReading<L>;
  readonly #limits: SeriesLimits;
  readonly #onError: (error: unknown) => void;

  /** `onError` hears a callback that threw; the family then has no samples in that scrape. */
  constructor(definition: CallbackGaugeDefinition<L>, limits: SeriesLimits, onError: (error: unknown) => void) {
    super(definition);
    this.#collect = definition.collect;
    this.#limits = limits;
    this.#onError = onError;
  }

  /**
   * The callback's reading. A label set read twice keeps its last value (the output must not repeat a
   * series); label sets beyond the series cap are dropped, each counted by the limits' `onFolded`.
   */
  override samples(): Sample[] {
    let reading: GaugeReading<L>;
    try {
      reading = this.#collect();
    } catch (error) {
      this.#onError(error);
      return [];
    }
    if (typeof reading === 'number') return [{ suffix: '', labels: labelPairs(this.labelNames, {} as LabelValues<L>), value: reading }];
    const byKey = new Map<string, { labels: LabelPairs; value: number }>();
    for (const { labels, value } of reading) {
      const pairs = labelPairs(this.labelNames, labels);
      const key = JSON.stringify(pairs);
      if (!byKey.has(key) && byKey.size >= this.#limits.maxSeries) {
        this.#limits.onFolded();
        continue;
      }
      byKey.set(key, { labels: pairs, value });
    }
    return [...byKey.values()].map(({ labels, value }) => ({ suffix: '', labels, value }));
  }
}
