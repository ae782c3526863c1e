/**
 * @module Questions per second an instance holds: `switchboard serve` on PostgreSQL (test/e2e/harness/cluster.ts,
 * one instance or more behind haproxy), the incident desk per host session, N hosts (2025-06-18, with elicitation) each calling
 * `restart_service` and answering its question at once, in a loop for a fixed time. Every completed call is one
 * question created, delivered and answered through the database. For design 013's capacity model.
 * Run: `node --import tsx bench/question-rate.ts [hosts] [seconds] [instances]` (needs SWITCHBOARD_TEST_PG_URL and
 * haproxy; DIRECT=1 connects the hosts to the first instance instead of the balancer).
 */

import { performance } from 'node:perf_hooks';

import { Client } from 'pg';

import { clusterSkipReason, startCluster } from '../test/e2e/harness/cluster.js';
import { RawHost } from '../test/e2e/harness/raw-host.js';
import { incidentDeskStdio } from '../test/e2e/harness/upstreams.js';

const hosts = Number(process.argv[2] ?? 16);
const seconds = Number(process.argv[3] ?? 20);
const instances = Number(process.argv[4] ?? 1);
if (clusterSkipReason !== undefined) {
  console.log(`skipped: ${clusterSkipReason}`);
  process.exit(0);
}
// Per-session (the default): a shared upstream's question could not be told apart between concurrent hosts' calls.
const cluster = await startCluster({ instances, upstreams: { desk: incidentDeskStdio() }, logLevel: 'warn' });
try {
  const answer = { action: 'accept', content: { confirm: true, ticket: 'CHG-1' } };
  const latencies: number[] = [];
  let failures = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: hosts }, async () => {
      const host = await RawHost.connect(process.env.DIRECT ? (cluster.members[0]?.url as string) : cluster.url, { protocolVersion: '2025-06-18', capabilities: { elicitation: {} } });
      for (let round = 1; performance.now() < end; round += 1) {
        const started = performance.now();
        try {
          const call = await host.callTool(round, 'restart_service', { service: 'payments-api' });
          const asked = await call.until((message) => message.method === 'elicitation/create');
          await host.answer(asked.id, answer);
          await call.rest();
          latencies.push(performance.now() - started);
        } catch (error) {
          failures += 1;
          if (failures === 1) console.error(String(error).slice(0, 500));
        }
      }
      await host.close();
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]?.toFixed(1);
  // What the questions take on disk: tables, indexes and TOAST of questions and audit, per question kept.
  const client = new Client({ connectionString: process.env['SWITCHBOARD_TEST_PG_URL'] });
  await client.connect();
  const { rows } = await client
    .query<{ bytes: string; kept: number }>(
      `SELECT pg_total_relation_size('"${cluster.schema}".questions') + pg_total_relation_size('"${cluster.schema}".audit') AS bytes, (SELECT count(*)::int FROM "${cluster.schema}".questions) AS kept`,
    )
    .finally(() => client.end());
  const bytesPerQuestion = rows[0] && rows[0].kept > 0 ? Math.round(Number(rows[0].bytes) / rows[0].kept) : undefined;
  console.log(JSON.stringify({ instances, hosts, seconds, questions: latencies.length, perSecond: Math.round(latencies.length / seconds), p50ms: at(0.5), p95ms: at(0.95), failures, bytesPerQuestion }));
} finally {
  await cluster.stop();
}
