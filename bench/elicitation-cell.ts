/**
 * @module Bench elicitation cells (issue 15): round trips of a tool call whose question the host answers at once, each
 * host kind through Switchboard and through the two peers beside the same incident desk reached directly, in the same
 * run. The desk's legacy mode serves cells 1-3 (`--http` direct, stdio behind a gateway); its `--stateless` mode serves
 * cell 4. A peer row is measured only if one attempted round trip comes back approved; otherwise it is `cannot`.
 */

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

import { INCIDENT_DESK_BIN } from '../test/e2e/harness/paths.js';
import { findAskingTool, openAskingHost, type AskingHost, type HostKind } from './elicit-hosts.js';
import type { PhaseResult } from './load-phase.js';
import type { BenchOptions } from './options.js';
import { attemptRoundTrip } from './peer-attempt.js';
import { PEERS, peerDeskSpec, type PeerName } from './peer-servers.js';
import { processTree, treeCpuMicros } from './proc-tree.js';
import { freePort, startTarget, type RunningTarget, type SpawnSpec } from './spawn-target.js';
import { emptyPhaseLog, summarize, type PhaseLog } from './summary.js';
import type { LoadSummary, Outcome } from './table.js';
import type { TargetContext } from './targets.js';

/** The servers the cells talk to. */
type ServerName = 'desk' | 'stateless desk' | 'switchboard + desk' | 'switchboard + stateless desk' | `${PeerName} + desk` | `${PeerName} + stateless desk`;

export interface CellRow {
  /** Which of issue 15's cells (1-4) the row belongs to. */
  cell: number;
  name: string;
  host: HostKind;
  server: ServerName;
  /** The row its ratios are taken against (same run, per round). */
  base?: string;
  /** A second comparison the issue asks for (cell 2 against cell 1 through the gateway). */
  also?: string;
  /** Set on a row through one of the other gateways: measured only if it can carry the round trip at all. */
  peer?: PeerName;
}

/** The peer rows of a cell: each peer in front of the cell's desk, compared with `base`. */
function peerRows(cell: number, host: HostKind, path: string, stateless: boolean, base: string): CellRow[] {
  return PEERS.map((peer) => ({ cell, name: `${host} host, ${peer}${path}`, host, server: `${peer} + ${stateless ? 'stateless desk' : 'desk'}`, base, peer }));
}

export const ROWS: CellRow[] = [
  { cell: 1, name: '2025-11-25 host, direct', host: '2025-11-25', server: 'desk' },
  { cell: 1, name: '2025-11-25 host, switchboard', host: '2025-11-25', server: 'switchboard + desk', base: '2025-11-25 host, direct' },
  ...peerRows(1, '2025-11-25', '', false, '2025-11-25 host, direct'),
  { cell: 2, name: '2025-06-18 host, direct', host: '2025-06-18', server: 'desk' },
  { cell: 2, name: '2025-06-18 host, switchboard', host: '2025-06-18', server: 'switchboard + desk', base: '2025-06-18 host, direct', also: '2025-11-25 host, switchboard' },
  ...peerRows(2, '2025-06-18', '', false, '2025-06-18 host, direct'),
  { cell: 3, name: '2026-07-28 host, switchboard, legacy upstream (parked)', host: '2026-07-28', server: 'switchboard + desk', base: '2025-11-25 host, switchboard' },
  // Cell 3 has no direct row (the legacy desk cannot serve a 2026-07-28 host); a peer that could would be compared
  // with the legacy host reaching the desk directly.
  ...peerRows(3, '2026-07-28', ', legacy upstream', false, '2025-11-25 host, direct'),
  { cell: 4, name: '2026-07-28 host, direct (stateless desk)', host: '2026-07-28', server: 'stateless desk' },
  { cell: 4, name: '2026-07-28 host, switchboard, 2026-07-28 upstream', host: '2026-07-28', server: 'switchboard + stateless desk', base: '2026-07-28 host, direct (stateless desk)' },
  ...peerRows(4, '2026-07-28', ', 2026-07-28 upstream', true, '2026-07-28 host, direct (stateless desk)'),
];

export interface RowResult {
  row: CellRow;
  /** Why a peer row was not measured: what its one attempted round trip did instead of coming back approved. */
  cannot?: string;
  single: Outcome<LoadSummary>;
  multi: Outcome<LoadSummary>;
  /** `single`/`multi` against `row.also`, when there is one. */
  alsoSingle?: Outcome<LoadSummary>;
  alsoMulti?: Outcome<LoadSummary>;
}

export interface ElicitationFigures {
  rounds: number;
  calls1: number;
  sessions: number;
  callsPerSession: number;
  /** The round trips of a peer row, @1 and per host @N (fewer at `--quick`). */
  peerCalls1: number;
  peerCallsPerSession: number;
  rows: RowResult[];
  seconds: number;
}

/** Which cells `--targets` selects: `elicitation` for all four, `elicitation-N` for one. */
export function selectedCells(names: string[]): Set<number> {
  const cells = new Set<number>();
  for (const name of names) {
    if (name === 'elicitation') [1, 2, 3, 4].forEach((cell) => cells.add(cell));
    const one = /^elicitation-([1-4])$/.exec(name);
    if (one) cells.add(Number(one[1]));
  }
  return cells;
}

async function gatewaySpec(context: TargetContext, name: string, stateless: boolean, profileDir: string | undefined): Promise<SpawnSpec> {
  const configPath = join(context.tmpDir, `${name}.yaml`);
  const yaml = [
    'listen: "127.0.0.1:0"',
    'upstreams:',
    '  desk:',
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: ${JSON.stringify(stateless ? [INCIDENT_DESK_BIN, '--stateless'] : [INCIDENT_DESK_BIN])}`,
    // A legacy desk asks mid-call: per-session (the default), since a shared stdio upstream's question cannot be told
    // apart between concurrent calls. The stateless desk never asks back, so one shared process serves every host.
    `    sharing: ${stateless ? 'shared' : 'per-session'}`,
    '',
  ].join('\n');
  await writeFile(configPath, yaml);
  const profile = profileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-name', `${name}.cpuprofile`];
  return {
    command: process.execPath,
    args: [...profile, join(context.repoRoot, 'bin', 'switchboard.mjs'), 'serve', '--config', configPath, '--listen', '127.0.0.1:0'],
    cwd: context.repoRoot,
    url: /Switchboard listening on (http:\/\/\S+\/mcp)/,
    startTimeoutMs: context.startTimeoutMs,
  };
}

async function deskSpec(context: TargetContext, stateless: boolean): Promise<SpawnSpec> {
  const port = await freePort();
  return {
    command: process.execPath,
    args: [INCIDENT_DESK_BIN, ...(stateless ? ['--stateless'] : []), '--http', `127.0.0.1:${port}`],
    cwd: context.repoRoot,
    url: `http://127.0.0.1:${port}/mcp`,
    startTimeoutMs: context.startTimeoutMs,
  };
}

function serverSpec(server: ServerName, context: TargetContext, profileDir: string | undefined): Promise<SpawnSpec> {
  switch (server) {
    case 'desk':
      return deskSpec(context, false);
    case 'stateless desk':
      return deskSpec(context, true);
    case 'switchboard + desk':
      return gatewaySpec(context, 'elicitation-gateway', false, profileDir);
    case 'switchboard + stateless desk':
      return gatewaySpec(context, 'elicitation-gateway-stateless', true, profileDir);
    case 'mcp-proxy + desk':
    case 'supergateway + desk':
      return peerDeskSpec(server === 'mcp-proxy + desk' ? 'mcp-proxy' : 'supergateway', context, false);
    case 'mcp-proxy + stateless desk':
    case 'supergateway + stateless desk':
      return peerDeskSpec(server === 'mcp-proxy + stateless desk' ? 'mcp-proxy' : 'supergateway', context, true);
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Consecutive failures after which one host gives up. */
const MAX_CONSECUTIVE_ERRORS = 20;

/** One phase: `sessions` hosts of a kind, a warm-up of `warmup` round trips in all, then `calls` round trips each, timed one by one. */
async function runPhase(url: string, kind: HostKind, tool: string, sessions: number, warmup: number, calls: number, options: BenchOptions, cpu: () => number): Promise<PhaseResult> {
  const hosts: AskingHost[] = [];
  try {
    for (let i = 0; i < sessions; i++) hosts.push(await openAskingHost(kind, url, tool, options.requestTimeoutMs));
    const latenciesMs: number[] = [];
    let errors = 0;
    let firstError: string | undefined;
    let deadline = Date.now() + options.phaseTimeoutMs;
    let timedOut = false;
    const loop = async (host: AskingHost, count: number, record: boolean): Promise<void> => {
      let consecutive = 0;
      for (let call = 0; call < count; call++) {
        if (Date.now() > deadline) return void (timedOut = true);
        const started = performance.now();
        try {
          await host.roundTrip();
          consecutive = 0;
          if (record) latenciesMs.push(performance.now() - started);
        } catch (error) {
          errors += 1;
          firstError ??= reason(error);
          // A failed warm-up ends the phase; a measured loop gives up after a run of failures.
          if (!record || ++consecutive >= MAX_CONSECUTIVE_ERRORS) return;
        }
      }
    };
    await Promise.all(hosts.map((host) => loop(host, Math.ceil(warmup / sessions), false)));
    if (errors > 0) throw new Error(`warm-up failed: ${firstError}`);
    deadline = Date.now() + options.phaseTimeoutMs;
    const cpuBefore = cpu();
    const started = performance.now();
    await Promise.all(hosts.map((host) => loop(host, calls, true)));
    const elapsedMs = performance.now() - started;
    return { calls: latenciesMs.length, errors, firstError, elapsedMs, latenciesMs, cpuMicros: cpu() - cpuBefore, timedOut };
  } finally {
    await Promise.all(hosts.map((host) => host.close()));
  }
}

interface RowLogs {
  single: PhaseLog;
  multi: PhaseLog;
}

/** Runs the selected cells: their servers started together, the rows taking turns round after round (order rotating). */
export async function runElicitationCells(cells: Set<number>, context: TargetContext, options: BenchOptions, profileDir: string | undefined, log: (message: string) => void): Promise<ElicitationFigures> {
  const began = performance.now();
  const rows = ROWS.filter((row) => cells.has(row.cell));
  const running = new Map<ServerName, RunningTarget>();
  const failedToStart = new Map<ServerName, string>();
  const sessions = options.concurrency;
  const callsPerSession = Math.max(1, Math.ceil(options.elicitationCalls / 8));
  const peerCallsPerSession = Math.max(1, Math.ceil(options.elicitationPeerCalls / 8));
  const cannot = new Map<string, string>();
  const logs = new Map<string, RowLogs>(rows.map((row) => [row.name, { single: emptyPhaseLog(), multi: emptyPhaseLog() }]));
  try {
    // The servers start side by side (a peer in front of a desk takes seconds to come up).
    await Promise.all(
      [...new Set(rows.map((row) => row.server))].map(async (server) => {
        try {
          running.set(server, await startTarget(await serverSpec(server, context, profileDir)));
          log(`elicitation: ${server} started`);
        } catch (error) {
          failedToStart.set(server, `start: ${reason(error)}`);
          log(`elicitation: ${server} failed to start: ${reason(error)}`);
        }
      }),
    );
    const tools = new Map<string, string>();
    for (const row of rows) {
      const server = running.get(row.server);
      if (row.peer === undefined || !server) continue;
      const attempt = await attemptRoundTrip(row.host, server.url);
      if (attempt.can) tools.set(row.name, attempt.tool);
      else cannot.set(row.name, server.exitStatus() ? `server ${server.exitStatus()}` : attempt.reason);
      log(`elicitation: ${row.name}: ${attempt.can ? 'one round trip came back approved; measured' : `cannot: ${cannot.get(row.name)}`}`);
    }
    for (let round = 0; round < options.elicitationRounds; round++) {
      const order = rows.map((_, i) => rows[(i + round) % rows.length] as CellRow);
      for (const row of order) {
        if (cannot.has(row.name)) continue;
        // A peer is measured in the last round only: its processes (supergateway keeps a desk per request for minutes)
        // would weigh on the other rows' rounds, and a slow one would take the run's time.
        if (row.peer && round !== options.elicitationRounds - 1) continue;
        const rowLogs = logs.get(row.name) as RowLogs;
        const server = running.get(row.server);
        const [calls1, callsEach] = row.peer ? [options.elicitationPeerCalls, peerCallsPerSession] : [options.elicitationCalls, callsPerSession];
        const warmup = row.peer ? Math.min(options.warmup, options.elicitationPeerCalls) : options.warmup;
        for (const [key, count, calls] of [['single', 1, calls1], ['multi', sessions, callsEach]] as const) {
          if (!server) {
            rowLogs[key].failures.push(failedToStart.get(row.server) ?? 'not started');
            continue;
          }
          // A smoke test keeps to two minutes: a peer (one desk process per host session) is measured at one host only.
          if (row.peer && key === 'multi' && options.quick) {
            rowLogs[key].failures.push('not measured at --quick');
            continue;
          }
          try {
            let tool = tools.get(row.name);
            if (tool === undefined) tools.set(row.name, (tool = await findAskingTool(row.host, server.url, options.requestTimeoutMs)));
            const result = await runPhase(server.url, row.host, tool, count, warmup, calls, options, () => treeCpuMicros(server.pid));
            rowLogs[key].byRound[round] = result;
            log(`elicitation round ${round + 1}/${options.elicitationRounds} ${row.name} @${count}: ${((result.calls * 1000) / result.elapsedMs).toFixed(0)} round trips/s, ${(result.cpuMicros / Math.max(1, result.calls)).toFixed(0)} µs CPU each, ${processTree(server.pid).length} processes${result.errors ? `, ${result.errors} errors (${result.firstError})` : ''}`);
          } catch (error) {
            await sleep(200);
            const failure = server.exitStatus() ? `server ${server.exitStatus()}` : reason(error);
            rowLogs[key].failures.push(failure);
            log(`elicitation round ${round + 1} ${row.name} @${count}: failed: ${failure}`);
          }
        }
      }
    }
  } finally {
    await Promise.all([...running.values()].map((server) => server.stop()));
  }
  const results = rows.map((row): RowResult => {
    const own = logs.get(row.name) as RowLogs;
    const base = row.base === undefined ? undefined : logs.get(row.base);
    const also = row.also === undefined ? undefined : logs.get(row.also);
    return {
      row,
      ...(cannot.has(row.name) && { cannot: cannot.get(row.name) }),
      single: summarize(own.single, base?.single),
      multi: summarize(own.multi, base?.multi),
      ...(also && { alsoSingle: summarize(own.single, also.single), alsoMulti: summarize(own.multi, also.multi) }),
    };
  });
  const peerCalls = { peerCalls1: options.elicitationPeerCalls, peerCallsPerSession };
  return { rounds: options.elicitationRounds, calls1: options.elicitationCalls, sessions, callsPerSession, ...peerCalls, rows: results, seconds: (performance.now() - began) / 1000 };
}
