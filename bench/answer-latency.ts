/**
 * @module Bench cluster cell, operator answer latency: a host without elicitation calls the incident desk's
 * `restart_service` on the instance holding its session, the question goes to an operator, who answers over the REST
 * API of that instance or of another one; timed from sending the answer to the host receiving the tool result.
 */

import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

import { CLUSTER_TOKEN, type RunningCluster } from '../test/e2e/harness/cluster.js';
import { OperatorApi } from '../test/e2e/harness/operator-api.js';
import { RawHost } from '../test/e2e/harness/raw-host.js';
import type { WireMessage } from '../test/e2e/harness/sse-reader.js';
import { scheduledAnswer, type AnswerKind } from './answer-schedule.js';

/** A 2025-era revision whose hosts the desk asks in-band; without the capability, the gateway routes to an operator. */
const REVISION = '2025-06-18';
const SERVICES = ['payments-api', 'search-indexer', 'auth-gateway', 'ledger-db'] as const;
const POLL_MS = 2;
const STEP_TIMEOUT_MS = 10_000;
/** Failed samples after which the run gives up. */
const MAX_FAILURES = 10;

export interface LatencySpec {
  /** Measured samples of each kind (same instance, other instance). */
  samples: number;
  /** Samples before those, not measured. */
  warmup: number;
}

export interface LatencyRun {
  same: number[];
  other: number[];
  /** Questions asked, warm-up and failed samples included. */
  questions: number;
  failures: string[];
}

/** The instance named in a session id (`<instance id, base64url>.<uuid>`, design 013). */
function ownerOf(sessionId: string): string {
  return Buffer.from(sessionId.split('.')[0] as string, 'base64url').toString('utf8');
}

function isResponse(id: number) {
  return (message: WireMessage): boolean => message.id === id && (message.result !== undefined || message.error !== undefined);
}

function resultText(message: WireMessage): string {
  const content = (message.result?.content ?? []) as { type: string; text?: string }[];
  return content.map((block) => block.text ?? '').join('\n') || JSON.stringify(message).slice(0, 200);
}

/** Polls the holder's API until a delivered question it has not seen appears. */
async function newQuestion(api: OperatorApi, seen: Set<string>): Promise<string> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const fresh = (await api.list('state=delivered&limit=50')).find((view) => !seen.has(view.id));
    if (fresh) {
      seen.add(fresh.id);
      return fresh.id;
    }
    await sleep(POLL_MS);
  }
  throw new Error(`no new question within ${STEP_TIMEOUT_MS} ms`);
}

/** One host session on each instance (opened on it directly, so it holds the session's calls). */
async function openHosts(cluster: RunningCluster): Promise<RawHost[]> {
  const hosts = await Promise.all(cluster.members.map((member) => RawHost.connect(member.url, { protocolVersion: REVISION, capabilities: {} })));
  hosts.forEach((host, index) => {
    const expected = cluster.members[index]?.id;
    if (ownerOf(host.sessionId) !== expected) throw new Error(`session ${host.sessionId} opened on ${expected} names ${ownerOf(host.sessionId)}`);
  });
  return hosts;
}

export async function measureAnswerLatency(cluster: RunningCluster, spec: LatencySpec): Promise<LatencyRun> {
  const run: LatencyRun = { same: [], other: [], questions: 0, failures: [] };
  const hosts = await openHosts(cluster);
  const apis = cluster.members.map((member) => new OperatorApi(member.url, CLUSTER_TOKEN, `bench-${member.id}`));
  const seen = new Set<string>();
  let nextId = 1;
  try {
    const total = spec.warmup + 2 * spec.samples;
    for (let index = 0; index < total && run.failures.length < MAX_FAILURES; index++) {
      const { kind, holder, answerer } = scheduledAnswer(index, cluster.members.length);
      const host = hosts[holder] as RawHost;
      const id = nextId++;
      const service = SERVICES[index % SERVICES.length] as string;
      const ticket = `CHG-${index}`;
      run.questions += 1;
      try {
        const call = await host.callTool(id, 'restart_service', { service });
        try {
          const question = await newQuestion(apis[holder] as OperatorApi, seen);
          const started = performance.now();
          const reply = (apis[answerer] as OperatorApi).answer(question, { action: 'accept', content: { confirm: true, ticket } });
          const result = await call.until(isResponse(id), STEP_TIMEOUT_MS);
          const elapsed = performance.now() - started;
          const answered = await reply;
          if (answered.status !== 200) throw new Error(`answer on ${cluster.members[answerer]?.id}: HTTP ${answered.status} ${answered.text.slice(0, 200)}`);
          const text = resultText(result);
          if (text !== `RESTARTED ${service} under ${ticket}`) throw new Error(`unexpected tool result: ${text}`);
          if (index >= spec.warmup) run[kind satisfies AnswerKind].push(elapsed);
          // The call's stream ends after its result.
          await call.rest(STEP_TIMEOUT_MS);
        } catch (error) {
          void call.close();
          throw error;
        }
      } catch (error) {
        run.failures.push(`sample ${index} (${kind}): ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  } finally {
    await Promise.all(hosts.map((host) => host.close()));
  }
  return run;
}
