/** @module The metrics registry: prom-client metrics in a registry of their own, each behind the label-set cap. */

import { Counter, Gauge, Histogram, Registry } from 'prom-client';

import type { LabelValues } from './capped-labels.js';
import { DEFAULT_MAX_SERIES_PER_METRIC, LabelCap } from './capped-labels.js';

export type MetricType = 'counter' | 'gauge' | 'histogram';

/** The content type a scraper expects for the text exposition format 0.0.4. */
export const EXPOSITION_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/** The registry's own counter: updates that found their metric full (see LabelCap). */
export const CAPPED_UPDATES_METRIC = 'switchboard_metrics_capped_updates_total';

/** How a metric is declared. */
export interface MetricDefinition<L extends string> {
  /** A valid metric name (a counter's ends with `_total` by convention). */
  readonly name: string;
  /** One line saying what is measured (shown as `# HELP`). */
  readonly help: string;
  /** The label names, in the order they are written (none by default). */
  readonly labelNames?: readonly L[];
}

export interface HistogramDefinition<L extends string> extends MetricDefinition<L> {
  /** Upper bounds, strictly increasing; `+Inf` is always added. */
  readonly buckets: readonly number[];
}

/** A gauge without labels whose value `collect` reads at each scrape (it must be cheap and synchronous). */
export interface CallbackGaugeDefinition {
  readonly name: string;
  readonly help: string;
  collect(): number;
}

export interface CappedCounter<L extends string> {
  /** Adds `by` (default 1; finite and not negative). */
  inc(labels: LabelValues<L>, by?: number): void;
}

export interface CappedGauge<L extends string> {
  set(labels: LabelValues<L>, value: number): void;
  inc(labels: LabelValues<L>, by?: number): void;
  dec(labels: LabelValues<L>, by?: number): void;
}

export interface CappedHistogram<L extends string> {
  /** Records one observation (NaN is ignored: it would poison `_sum`). */
  observe(labels: LabelValues<L>, value: number): void;
}

export interface RegistryOptions {
  /** Distinct label sets per metric before new ones are folded into the `other` series (default 1000). */
  maxSeriesPerMetric?: number;
  /** Hears a callback gauge that threw (it keeps its previous value in that scrape). */
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
  readonly contentType: string = EXPOSITION_CONTENT_TYPE;
  /** Not prom-client's global registry: gateways in one process keep their metrics apart. */
  readonly #registry = new Registry();
  readonly #described: MetricDescription[] = [];
  readonly #maxSeries: number;
  readonly #onCollectError: (metric: string, error: unknown) => void;
  readonly #capped: Counter<'metric'>;

  constructor(options: RegistryOptions = {}) {
    const maxSeries = options.maxSeriesPerMetric ?? DEFAULT_MAX_SERIES_PER_METRIC;
    if (!Number.isInteger(maxSeries) || maxSeries < 1) throw new RangeError(`maxSeriesPerMetric must be a positive integer, not ${maxSeries}`);
    this.#maxSeries = maxSeries;
    this.#onCollectError = options.onCollectError ?? (() => undefined);
    // One series per metric of this registry at most: it needs no cap of its own.
    const capped: MetricDefinition<'metric'> = {
      name: CAPPED_UPDATES_METRIC,
      help: 'Updates to a metric that had reached its cap of label sets: folded into its series labelled "other" (or, for a gauge computed at scrape time, dropped).',
      labelNames: ['metric'],
    };
    this.#capped = this.#record('counter', capped, new Counter({ ...declaration(capped), registers: [this.#registry] }));
  }

  counter<L extends string = never>(definition: MetricDefinition<L>): CappedCounter<L> {
    const counter = this.#record('counter', definition, new Counter<L>({ ...declaration(definition), registers: [this.#registry] }));
    const cap = this.#capFor(definition);
    return {
      inc(labels, by = 1) {
        if (!Number.isFinite(by) || by < 0) throw new RangeError(`counter ${definition.name}: cannot add ${by}`);
        counter.inc(cap.labels(labels), by);
      },
    };
  }

  gauge<L extends string = never>(definition: MetricDefinition<L>): CappedGauge<L> {
    const gauge = this.#record('gauge', definition, new Gauge<L>({ ...declaration(definition), registers: [this.#registry] }));
    const cap = this.#capFor(definition);
    return {
      set: (labels, value) => gauge.set(cap.labels(labels), value),
      inc: (labels, by = 1) => gauge.inc(cap.labels(labels), by),
      dec: (labels, by = 1) => gauge.dec(cap.labels(labels), by),
    };
  }

  /** A gauge whose value `collect` reads at each scrape. */
  callbackGauge(definition: CallbackGaugeDefinition): void {
    const report = (error: unknown) => this.#onCollectError(definition.name, error);
    const gauge = new Gauge({
      ...declaration(definition),
      registers: [this.#registry],
      collect() {
        try {
          this.set(definition.collect());
        } catch (error) {
          report(error);
        }
      },
    });
    this.#record('gauge', definition, gauge);
  }

  histogram<L extends string = never>(definition: HistogramDefinition<L>): CappedHistogram<L> {
    const histogram = this.#record(
      'histogram',
      definition,
      new Histogram<L>({ ...declaration(definition), buckets: [...definition.buckets], registers: [this.#registry] }),
    );
    const cap = this.#capFor(definition);
    return {
      observe(labels, value) {
        if (!Number.isNaN(value)) histogram.observe(cap.labels(labels), value);
      },
    };
  }

  /** Every metric family, in the order it was defined. */
  describe(): MetricDescription[] {
    return this.#described.map((description) => ({ ...description }));
  }

  /** Every family in the text exposition format 0.0.4: HELP and TYPE once per family, then its samples. */
  render(): Promise<string> {
    return this.#registry.metrics();
  }

  /** Keeps the description of a metric prom-client accepted (it checks the names and refuses one already taken). */
  #record<M>(type: MetricType, definition: MetricDefinition<string>, metric: M): M {
    this.#described.push({ name: definition.name, type, help: definition.help, labelNames: [...(definition.labelNames ?? [])] });
    return metric;
  }

  #capFor<L extends string>(definition: MetricDefinition<L>): LabelCap<L> {
    const metric = definition.name;
    return new LabelCap(definition.labelNames ?? [], this.#maxSeries, () => this.#capped.inc({ metric }));
  }
}

/** The name, help and label names as prom-client takes them. */
function declaration<L extends string>(definition: MetricDefinition<L>): { name: string; help: string; labelNames: readonly L[] } {
  return { name: definition.name, help: definition.help, labelNames: definition.labelNames ?? [] };
}
