/** @module For tests: the value of one series in a text exposition, found by its exact name and labels as written. */

/** `series` is written as in the exposition, e.g. `x_total{a="b"}`; undefined when no line has it. */
export function sampleValue(exposition: string, series: string): number | undefined {
  const line = exposition.split('\n').find((l) => l.startsWith(`${series} `));
  if (line === undefined) return undefined;
  const text = line.slice(series.length + 1);
  return text === '+Inf' ? Infinity : text === '-Inf' ? -Infinity : Number(text);
}
