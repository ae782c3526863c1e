/** @module Formats `switchboard check` results for a terminal: one block per upstream, one for the store, then a summary line. */

import type { UpstreamReport } from '../ports/host-contracts.js';
import type { InstanceSummary, StoreReport } from '../store/store-report.js';

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

function schemaLine(store: StoreReport): string | undefined {
  const latest = store.latestSchemaVersion;
  if (store.schemaVersion === undefined) return latest === undefined ? undefined : `not created yet (serve creates version ${latest})`;
  if (latest !== undefined && store.schemaVersion < latest) return `version ${store.schemaVersion} (serve upgrades it to ${latest})`;
  return `version ${store.schemaVersion}`;
}

function formatStore(store: StoreReport): string[] {
  const ok = store.state === 'ok';
  const lines = [`store (${store.type}): ${ok ? 'ok' : 'FAILED'}`];
  const row = (label: string, value: string) => lines.push(`  ${`${label}:`.padEnd(14)}${value}`);
  if (store.type === 'memory') {
    row('kept', 'nothing: questions and runs are lost when the gateway stops');
    return lines;
  }
  if (store.where !== undefined) row(store.type === 'sqlite' ? 'file' : 'database', store.where);
  if (!ok) {
    row('reason', store.error ?? 'unknown error');
    return lines;
  }
  if (store.serverVersion !== undefined) row('server', `PostgreSQL ${store.serverVersion}`);
  const schema = schemaLine(store);
  if (schema !== undefined) row('schema', schema);
  if (store.instances !== undefined) {
    if (store.instances.length === 0) row('instances', 'none has joined yet');
    store.instances.forEach((instance, index) => (index === 0 ? row('instances', instanceLine(instance)) : lines.push(`${' '.repeat(16)}${instanceLine(instance)}`)));
  }
  return lines;
}

/** One instance: its id, state, how long since it joined and since it was last heard. */
function instanceLine(instance: InstanceSummary): string {
  const heard = instance.state === 'up' ? `, heard ${span(instance.silentSeconds)} ago` : '';
  const reached = instance.advertise === undefined ? '' : `, reached at ${instance.advertise}`;
  return `${instance.id}: ${instance.state}, joined ${span(instance.ageSeconds)} ago${heard}${reached}`;
}

/** A duration in whole seconds as people read it: 45s, 3m 5s, 2h 4m, 3d 1h. */
function span(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ${Math.floor((seconds % 3600) / 60)}m`;
  return `${Math.floor(seconds / 86_400)}d ${Math.floor((seconds % 86_400) / 3600)}h`;
}

/** The whole report, ending with a newline; with `store`, its block comes after the upstreams'. */
export function formatCheckReport(reports: UpstreamReport[], store?: StoreReport): string {
  const failed = reports.filter((r) => r.state !== 'up').length;
  const summary =
    (failed === 0 ? `All ${plural(reports.length, 'upstream')} OK.` : `${failed} of ${plural(reports.length, 'upstream')} failed.`) +
    (store?.state === 'failed' ? ' The store failed.' : '');
  return `${[...reports.flatMap(formatOne), ...(store === undefined ? [] : formatStore(store)), summary].join('\n')}\n`;
}
