/**
 * @module The cap on label sets per metric: past the cap a new label set is recorded under one series whose
 * every label is `other`, and label values are cut short, so hostile names cannot exhaust memory.
 */

/** The label values of one series, by label name. */
export type LabelValues<L extends string> = Readonly<Record<L, string>>;

/** The value every label of the overflow series has. */
export const OTHER_LABEL_VALUE = 'other';

/** Longer label values are cut to this many UTF-16 code units (a series' memory stays bounded too). */
export const MAX_LABEL_VALUE_LENGTH = 256;

export const DEFAULT_MAX_SERIES_PER_METRIC = 1000;

/** A label value as it is recorded: a string, cut to MAX_LABEL_VALUE_LENGTH without splitting a surrogate pair. */
export function normalizeLabelValue(value: unknown): string {
  const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
  if (text.length <= MAX_LABEL_VALUE_LENGTH) return text;
  const cut = text.slice(0, MAX_LABEL_VALUE_LENGTH);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** The label sets one metric has recorded, up to `maxSeries`. */
export class LabelCap<L extends string> {
  readonly #labelNames: readonly L[];
  readonly #maxSeries: number;
  readonly #onFolded: () => void;
  readonly #seen = new Set<string>();

  /** `onFolded` is called for each update that was folded into the `other` series. */
  constructor(labelNames: readonly L[], maxSeries: number, onFolded: () => void) {
    this.#labelNames = labelNames;
    this.#maxSeries = maxSeries;
    this.#onFolded = onFolded;
  }

  /**
   * The labels to record `values` under, in the metric's label order (a missing label is the empty string):
   * its own when the label set is known or there is room, otherwise every label `other`.
   */
  labels(values: LabelValues<L>): Record<L, string> {
    const labels = {} as Record<L, string>;
    for (const name of this.#labelNames) labels[name] = normalizeLabelValue((values as Record<string, unknown>)[name]);
    const key = JSON.stringify(this.#labelNames.map((name) => labels[name]));
    if (this.#seen.has(key)) return labels;
    if (this.#seen.size < this.#maxSeries) {
      this.#seen.add(key);
      return labels;
    }
    this.#onFolded();
    for (const name of this.#labelNames) labels[name] = OTHER_LABEL_VALUE;
    return labels;
  }
}
