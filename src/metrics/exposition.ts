/** @module The Prometheus text exposition format 0.0.4: escaping, number forms and the lines of one metric family. */

export type MetricType = 'counter' | 'gauge' | 'histogram';

/** One line of output: the family name plus `suffix` (`_bucket`, `_sum`, `_count` or nothing), labels in order, a value. */
export interface Sample {
  readonly suffix: string;
  readonly labels: readonly (readonly [name: string, value: string])[];
  readonly value: number;
}

/** The content type a scraper expects for this format. */
export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** A label value inside double quotes: backslash, double quote and line feed are escaped. */
export function escapeLabelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

/** HELP text: backslash and line feed are escaped (a double quote is not). */
export function escapeHelp(text: string): string {
  return text.replace(/[\\\n]/g, (c) => (c === '\n' ? '\\n' : '\\\\'));
}

/** A sample value or a bucket bound: `+Inf`, `-Inf`, `NaN`, otherwise the shortest decimal form. */
export function formatNumber(value: number): string {
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  if (Number.isNaN(value)) return 'NaN';
  return String(value);
}

/** The HELP and TYPE lines followed by one line per sample, each ending with a line feed. */
export function renderFamily(name: string, help: string, type: MetricType, samples: readonly Sample[]): string {
  let text = `# HELP ${name} ${escapeHelp(help)}\n# TYPE ${name} ${type}\n`;
  for (const sample of samples) {
    const labels = sample.labels.map(([label, value]) => `${label}="${escapeLabelValue(value)}"`).join(',');
    text += `${name}${sample.suffix}${labels.length > 0 ? `{${labels}}` : ''} ${formatNumber(sample.value)}\n`;
  }
  return text;
}
