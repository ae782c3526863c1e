/** @module Bench load phase: N host sessions each running tools/call sequentially (warm-up, then a fixed measured count). */

import { performance } from 'node:perf_hooks';
import { McpSession } from './mcp-client.js';

export interface PhaseSpec {
  sessions: number;
  callsPerSession: number;
  /** Warm-up calls for the whole phase, spread over the sessions. */
  warmupCalls: number;
  /** The measured loop stops at this many milliseconds even if calls remain. */
  timeoutMs: number;
  requestTimeoutMs: number;
}

export interface PhaseResult {
  calls: number;
  errors: number;
  firstError?: string;
  elapsedMs: number;
  latenciesMs: number[];
  /** Server process-tree CPU consumed during the measured loop. */
  cpuMicros: number;
  timedOut: boolean;
}

/** Consecutive failures after which one session gives up (keeps a broken target from spinning). */
const MAX_CONSECUTIVE_ERRORS = 20;

/** The target's name for the echo tool: `echo`, or a gateway-prefixed variant of it. */
export async function findEchoTool(session: McpSession): Promise<string> {
  const names = await session.toolNames();
  const tool = names.find((name) => name === 'echo') ?? names.find((name) => /echo$/.test(name));
  if (!tool) throw new Error(`no echo tool in tools/list (${names.join(', ') || 'empty'})`);
  return tool;
}

/** Opens `count` sessions at once; if any fails, closes the others and throws. */
export async function openSessions(url: string, count: number, requestTimeoutMs: number): Promise<McpSession[]> {
  const settled = await Promise.allSettled(Array.from({ length: count }, () => McpSession.open(url, { timeoutMs: requestTimeoutMs })));
  const sessions = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const failure = settled.find((outcome) => outcome.status === 'rejected');
  if (!failure) return sessions;
  await Promise.all(sessions.map((session) => session.close()));
  throw failure.reason instanceof Error ? failure.reason : new Error(String(failure.reason));
}

export async function runLoadPhase(url: string, spec: PhaseSpec, cpuMicros: () => number): Promise<PhaseResult> {
  const sessions = await openSessions(url, spec.sessions, spec.requestTimeoutMs);
  try {
    const tool = await findEchoTool(sessions[0] as McpSession);
    const latenciesMs: number[] = [];
    let errors = 0;
    let firstError: string | undefined;
    let deadline = Date.now() + spec.timeoutMs;
    let timedOut = false;

    const loop = async (session: McpSession, index: number, calls: number, record: boolean): Promise<void> => {
      let consecutive = 0;
      for (let call = 0; call < calls; call++) {
        if (Date.now() > deadline) {
          timedOut = true;
          return;
        }
        const started = performance.now();
        try {
          await session.echo(tool, `s${index}-c${call}`);
          consecutive = 0;
          if (record) latenciesMs.push(performance.now() - started);
        } catch (error) {
          errors += 1;
          firstError ??= error instanceof Error ? error.message : String(error);
          if (++consecutive >= MAX_CONSECUTIVE_ERRORS) return;
        }
      }
    };

    const warmupPerSession = Math.ceil(spec.warmupCalls / spec.sessions);
    await Promise.all(sessions.map((session, index) => loop(session, index, warmupPerSession, false)));
    if (errors > 0) throw new Error(`warm-up failed: ${firstError}`);

    deadline = Date.now() + spec.timeoutMs;
    const cpuBefore = cpuMicros();
    const started = performance.now();
    await Promise.all(sessions.map((session, index) => loop(session, index, spec.callsPerSession, true)));
    const elapsedMs = performance.now() - started;
    const cpu = cpuMicros() - cpuBefore;
    return { calls: latenciesMs.length, errors, firstError, elapsedMs, latenciesMs, cpuMicros: cpu, timedOut };
  } finally {
    await Promise.all(sessions.map((session) => session.close()));
  }
}
