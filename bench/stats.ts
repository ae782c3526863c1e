/** @module Bench statistics: median, nearest-rank percentiles, p50/p95 spreads and guarded ratios. */

export function median(values: number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100) of an unsorted list; NaN when empty. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

/** How a set of latencies spreads: its size, median and 95th percentile. */
export interface Spread {
  samples: number;
  p50: number;
  p95: number;
}

export function spread(values: number[]): Spread {
  return { samples: values.length, p50: percentile(values, 50), p95: percentile(values, 95) };
}

/** `part / whole`, or undefined unless both are finite and `whole` is above zero. */
export function ratioOf(part: number | undefined, whole: number | undefined): number | undefined {
  if (part === undefined || whole === undefined || !Number.isFinite(part) || !Number.isFinite(whole) || !(whole > 0)) return undefined;
  return part / whole;
}
