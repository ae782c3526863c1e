/**
 * @module The label sets of one metric and their state, capped: past the cap a new label set is folded
 * into one series whose every label is `other`, so hostile names cannot exhaust memory.
 */

/** The label values of one series, by label name. */
export type LabelValues<L extends string> = Readonly<Record<L, string>>;

/** The value every label of the overflow series has. */
export const OTHER_LABEL_VALUE = 'other';

/** Longer label values are cut to this many UTF-16 code units (a series' memory stays bounded too). */
export const MAX_LABEL_VALUE_LENGTH = 256;

export type LabelPairs = readonly (readonly [name: string, value: string])[];

export interface SeriesLimits {
  /** Distinct label sets a metric keeps before folding new ones into the `other` series. */
  readonly maxSeries: number;
  /** Called for each update that was folded into the `other` series. */
  onFolded(): void;
}

/** A label value as it is stored: a string, cut to MAX_LABEL_VALUE_LENGTH without splitting a surrogate pair. */
export function normalizeLabelValue(value: unknown): string {
  const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
  if (text.length <= MAX_LABEL_VALUE_LENGTH) return text;
  const cut = text.slice(0, MAX_LABEL_VALUE_LENGTH);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** The label pairs of one label set, in the metric's label order (a missing label is the empty string). */
export function labelPairs<L extends string>(labelNames: readonly L[], labels: LabelValues<L>): LabelPairs {
  return labelNames.map((name) => [name, normalizeLabelValue((labels as Record<string, unknown>)[name])] as const);
}

interface Series<S> {
  readonly labels: LabelPairs;
  readonly state: S;
}

export class SeriesTable<L extends string, S> {
  readonly #labelNames: readonly L[];
  readonly #limits: SeriesLimits;
  readonly #create: () => S;
  readonly #series = new Map<string, Series<S>>();

  constructor(labelNames: readonly L[], limits: SeriesLimits, create: () => S) {
    this.#labelNames = labelNames;
    this.#limits = limits;
    this.#create = create;
  }

  /** The state of the series for `labels`, created on first use (or the `other` series once the table is full). */
  get(labels: LabelValues<L>): S {
    let pairs = labelPairs(this.#labelNames, labels);
    let key = keyOf(pairs);
    let series = this.#series.get(key);
    if (series) return series.state;
    if (this.#series.size >= this.#limits.maxSeries) {
      this.#limits.onFolded();
      pairs = this.#labelNames.map((name) => [name, OTHER_LABEL_VALUE] as const);
      key = keyOf(pairs);
      series = this.#series.get(key);
      if (series) return series.state;
    }
    series = { labels: pairs, state: this.#create() };
    this.#series.set(key, series);
    return series.state;
  }

  /** Every series, in the order they were first used. */
  entries(): IterableIterator<Series<S>> {
    return this.#series.values();
  }

  get size(): number {
    return this.#series.size;
  }
}

function keyOf(pairs: LabelPairs): string {
  return JSON.stringify(pairs.map(([, value]) => value));
}
