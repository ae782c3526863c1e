/** @module The metrics registry: defines counters, gauges and histograms under unique names, caps their series, renders them all. */

import type { CallbackGaugeDefinition } from './callback-gauge.js';
import { CallbackGauge } from './callback-gauge.js';
import { Counter } from './counter.js';
import type { MetricType } from './exposition.js';
import { renderFamily } from './exposition.js';
import { Gauge } from './gauge.js';
import type { HistogramDefinition } from './histogram.js';
import { Histogram } from './histogram.js';
import type { MetricDefinition, MetricFamily } from './metric-family.js';
import type { SeriesLimits } from './series-table.js';

export const DEFAULT_MAX_SERIES_PER_METRIC = 1000;

/** The registry's own counter: updates that found their metric full (see SeriesTable). */
export const CAPPED_UPDATES_METRIC = 'switchboard_metrics_capped_updates_total';

export interface RegistryOptions {
  /** Distinct label sets per metric before new ones are folded into the `other` series (default 1000). */
  maxSeriesPerMetric?: number;
  /** Hears a callback gauge that threw (its family is empty in that scrape). */
  onCollectError?: (metric: string, error: unknown) => void;
}

/** A metric as documented: what docs/metrics.md lists. */
export interface MetricDescription {
  name: string;
  type: MetricType;
  help: string;
  labelNames: readonly string[];
}

export class MetricsRegistry {
  readonly #families: MetricFamily[] = [];
  /** Family and sample names taken so far (a histogram takes four). */
  readonly #usedNames = new Set<string>();
  readonly #maxSeries: number;
  readonly #onCollectError: (metric: string, error: unknown) => void;
  readonly #capped: Counter<'metric'>;

  constructor(options: RegistryOptions = {}) {
    const maxSeries = options.maxSeriesPerMetric ?? DEFAULT_MAX_SERIES_PER_METRIC;
    if (!Number.isInteger(maxSeries) || maxSeries < 1) throw new RangeError(`maxSeriesPerMetric must be a positive integer, not ${maxSeries}`);
    this.#maxSeries = maxSeries;
    this.#onCollectError = options.onCollectError ?? (() => undefined);
    // One series per metric of this registry at most: it needs no cap of its own.
    this.#capped = this.#add(
      new Counter(
        {
          name: CAPPED_UPDATES_METRIC,
          help: 'Updates to a metric that had reached its cap of label sets: folded into its series labelled "other" (or, for a gauge computed at scrape time, dropped).',
          labelNames: ['metric'],
        },
        { maxSeries: Number.MAX_SAFE_INTEGER, onFolded: () => undefined },
      ),
    );
  }

  counter<L extends string = never>(definition: MetricDefinition<L>): Counter<L> {
    return this.#add(new Counter(definition, this.#limitsFor(definition.name)));
  }

  gauge<L extends string = never>(definition: MetricDefinition<L>): Gauge<L> {
    return this.#add(new Gauge(definition, this.#limitsFor(definition.name)));
  }

  /** A gauge whose samples `collect` computes at each scrape. */
  callbackGauge<L extends string = never>(definition: CallbackGaugeDefinition<L>): CallbackGauge<L> {
    const name = definition.name;
    return this.#add(new CallbackGauge(definition, this.#limitsFor(name), (error) => this.#onCollectError(name, error)));
  }

  histogram<L extends string = never>(definition: HistogramDefinition<L>): Histogram<L> {
    return this.#add(new Histogram(definition, this.#limitsFor(definition.name)));
  }

  /** Every metric family, in the order it was defined. */
  describe(): MetricDescription[] {
    return this.#families.map(({ name, type, help, labelNames }) => ({ name, type, help, labelNames }));
  }

  /** Every family in the text exposition format 0.0.4: HELP and TYPE once per family, then its samples. */
  render(): string {
    // The cap counter is read last, so that it includes what the other families dropped in this very scrape.
    const samples = new Map(this.#families.filter((family) => family !== this.#capped).map((family) => [family, family.samples()]));
    samples.set(this.#capped, this.#capped.samples());
    return this.#families.map((family) => renderFamily(family.name, family.help, family.type, samples.get(family) ?? [])).join('');
  }

  #limitsFor(metric: string): SeriesLimits {
    return { maxSeries: this.#maxSeries, onFolded: () => this.#capped.inc({ metric }) };
  }

  #add<F extends MetricFamily>(family: F): F {
    const names = new Set([family.name, ...family.sampleNames]);
    const clash = [...names].find((name) => this.#usedNames.has(name));
    if (clash !== undefined) throw new Error(`metric ${family.name}: the name ${clash} is already used by another metric`);
    for (const name of names) this.#usedNames.add(name);
    this.#families.push(family);
    return family;
  }
}
