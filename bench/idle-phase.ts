/** @module Bench idle-memory phase: open N initialized sessions (initialize + one tools/list each) and keep them, then sample the server tree's RSS. */

import { setTimeout as sleep } from 'node:timers/promises';
import { McpSession } from './mcp-client.js';
import { memAvailableBytes, treeMemory, type TreeMemory } from './proc-tree.js';
import { median } from './stats.js';

export interface IdleSpec {
  sessions: number;
  /** Sessions being opened at the same time. */
  concurrency: number;
  /** Opening stops at this many milliseconds even if sessions remain. */
  timeoutMs: number;
  requestTimeoutMs: number;
  /** Opening stops when the machine's MemAvailable drops below this. */
  minFreeBytes: number;
  /** Pause between the last session opened and the first sample. */
  settleMs: number;
}

export interface IdleResult extends TreeMemory {
  opened: number;
  /** Sessions whose initialize or tools/list failed (the phase goes on up to MAX_FAILED_OPENS). */
  failedOpens: number;
  firstError?: string;
  /** Why opening stopped before the requested count. */
  stoppedEarly?: string;
}

const MAX_FAILED_OPENS = 5;

/** The sessions opened, and how opening went. */
export interface OpenedSessions {
  sessions: McpSession[];
  failedOpens: number;
  firstError?: string;
  stoppedEarly?: string;
}

export type OpenSpec = Omit<IdleSpec, 'settleMs'>;

/** Opens up to `spec.sessions` sessions (initialize, notifications/initialized, one tools/list each) and keeps them; stops early on time, free memory or repeated failures. */
export async function openIdleSessions(url: string, spec: OpenSpec): Promise<OpenedSessions> {
  const sessions: McpSession[] = [];
  const deadline = Date.now() + spec.timeoutMs;
  let started = 0;
  let stoppedEarly: string | undefined;
  let failedOpens = 0;
  let firstError: string | undefined;

  const worker = async (): Promise<void> => {
    while (started < spec.sessions && stoppedEarly === undefined) {
      if (Date.now() > deadline) stoppedEarly = `time limit of ${spec.timeoutMs} ms`;
      else if (memAvailableBytes() < spec.minFreeBytes) stoppedEarly = `machine MemAvailable below ${Math.round(spec.minFreeBytes / 2 ** 20)} MB`;
      if (stoppedEarly !== undefined) return;
      started += 1;
      try {
        const session = await McpSession.open(url, { timeoutMs: spec.requestTimeoutMs });
        await session.toolNames();
        sessions.push(session);
      } catch (error) {
        started -= 1; // let another attempt take its place
        firstError ??= error instanceof Error ? error.message : String(error);
        if (++failedOpens >= MAX_FAILED_OPENS) stoppedEarly ??= `${failedOpens} sessions failed to open`;
      }
    }
  };

  await Promise.all(Array.from({ length: Math.max(1, spec.concurrency) }, worker));
  return {
    sessions,
    failedOpens,
    ...(firstError === undefined ? {} : { firstError }),
    ...(stoppedEarly === undefined ? {} : { stoppedEarly }),
  };
}

export async function runIdlePhase(url: string, rootPid: number, spec: IdleSpec): Promise<IdleResult> {
  // The sessions stay open: the caller stops the target (and its whole tree) right after.
  const { sessions, failedOpens, firstError, stoppedEarly } = await openIdleSessions(url, spec);
  if (sessions.length === 0) throw new Error(firstError ?? stoppedEarly ?? 'no session opened');
  await sleep(spec.settleMs);
  const samples: TreeMemory[] = [];
  for (let i = 0; i < 3; i++) {
    if (i > 0) await sleep(500);
    samples.push(treeMemory(rootPid));
  }
  return {
    opened: sessions.length,
    failedOpens,
    rssBytes: median(samples.map((sample) => sample.rssBytes)),
    pssBytes: median(samples.map((sample) => sample.pssBytes)),
    processes: Math.max(...samples.map((sample) => sample.processes)),
    ...(firstError === undefined ? {} : { firstError }),
    ...(stoppedEarly === undefined ? {} : { stoppedEarly }),
  };
}
