/** @module The names the exposition format allows for metrics and labels, checked when a metric is defined. */

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Throws unless `name` is a valid metric name (`[a-zA-Z_:][a-zA-Z0-9_:]*`). */
export function checkMetricName(name: string): void {
  if (!METRIC_NAME.test(name)) throw new Error(`invalid metric name ${JSON.stringify(name)}: it must match ${METRIC_NAME.source}`);
}

/**
 * Throws unless every label name is valid (`[a-zA-Z_][a-zA-Z0-9_]*`), not reserved (`__` prefix), not
 * repeated, and not one of `reserved` (a histogram reserves `le`).
 */
export function checkLabelNames(metric: string, names: readonly string[], reserved: readonly string[] = []): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (!LABEL_NAME.test(name)) throw new Error(`metric ${metric}: invalid label name ${JSON.stringify(name)}: it must match ${LABEL_NAME.source}`);
    if (name.startsWith('__')) throw new Error(`metric ${metric}: label name ${JSON.stringify(name)} is reserved (it starts with "__")`);
    if (reserved.includes(name)) throw new Error(`metric ${metric}: label name ${JSON.stringify(name)} is reserved for this metric type`);
    if (seen.has(name)) throw new Error(`metric ${metric}: label name ${JSON.stringify(name)} is repeated`);
    seen.add(name);
  }
}
