/**
 * @module Bench peer attempt (elicitation cells): before a peer row is measured, one host of the row's kind tries one
 * round trip through the peer, with a short timeout; if it does not come back approved, the row is `cannot: <reason>`.
 */

import { findAskingTool, openAskingHost, type HostKind } from './elicit-hosts.js';

/** The time one request of the attempt may take (a dropped question leaves the call's stream open). */
export const ATTEMPT_TIMEOUT_MS = 10_000;

export type Attempt = { can: true; tool: string } | { can: false; reason: string };

function reason(error: unknown, timeoutMs: number): string {
  if (!(error instanceof Error)) return String(error);
  // AbortSignal.timeout's DOMException says only "The operation was aborted due to timeout".
  return error.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s (the request hangs)` : error.message;
}

/** One round trip of a `kind` host through `url`: whether it came back approved, or what happened instead. */
export async function attemptRoundTrip(kind: HostKind, url: string, timeoutMs = ATTEMPT_TIMEOUT_MS): Promise<Attempt> {
  let tool: string;
  try {
    tool = await findAskingTool(kind, url, timeoutMs);
  } catch (error) {
    return { can: false, reason: `tools/list: ${reason(error, timeoutMs)}` };
  }
  try {
    const host = await openAskingHost(kind, url, tool, timeoutMs);
    try {
      await host.roundTrip();
    } finally {
      await host.close();
    }
    return { can: true, tool };
  } catch (error) {
    return { can: false, reason: reason(error, timeoutMs) };
  }
}
