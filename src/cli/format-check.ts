/** @module Formats `switchboard check` results for a terminal: one block per upstream, then a summary line. */

import type { UpstreamReport } from '../ports/host-contracts.js';

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

function formatOne(report: UpstreamReport): string[] {
  const ok = report.state === 'up';
  const lines = [`${report.name} (${report.transport}): ${ok ? 'ok' : 'FAILED'}`];
  const row = (label: string, value: string) => lines.push(`  ${`${label}:`.padEnd(14)}${value}`);
  if (!ok) {
    row('reason', report.error ?? (report.state === 'pending' ? 'not tried yet' : 'unknown error'));
    return lines;
  }
  if (report.era !== undefined) row('era', report.era === 'modern' ? 'modern (stateless, no initialize)' : 'legacy (initialize, sessions)');
  row('revision', report.protocolVersion ?? 'unknown');
  if (report.serverInfo?.name !== undefined) row('server', [report.serverInfo.name, report.serverInfo.version].filter(Boolean).join(' '));
  const capabilities = Object.keys(report.capabilities ?? {}).sort();
  row('capabilities', capabilities.length === 0 ? '(none)' : capabilities.join(', '));
  const counts = report.counts;
  if (counts !== undefined) {
    row(
      'offers',
      [
        plural(counts.tools, 'tool'),
        plural(counts.resources, 'resource'),
        plural(counts.resourceTemplates, 'resource template'),
        plural(counts.prompts, 'prompt'),
      ].join(', '),
    );
  }
  return lines;
}

/** The whole report, ending with a newline. */
export function formatCheckReport(reports: UpstreamReport[]): string {
  const failed = reports.filter((r) => r.state !== 'up').length;
  const summary =
    failed === 0 ? `All ${plural(reports.length, 'upstream')} OK.` : `${failed} of ${plural(reports.length, 'upstream')} failed.`;
  return `${[...reports.flatMap(formatOne), summary].join('\n')}\n`;
}
