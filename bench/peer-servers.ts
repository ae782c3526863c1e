/**
 * @module Bench peers in front of the incident desk (elicitation cells): mcp-proxy and supergateway started with the
 * flags of the plain-call targets (bench/targets.ts), the desk from `dist/` over stdio as their one upstream command.
 */

import { join } from 'node:path';

import { INCIDENT_DESK_BIN } from '../test/e2e/harness/paths.js';
import { freePort, type SpawnSpec } from './spawn-target.js';
import type { TargetContext } from './targets.js';

/** The two other gateways the bench compares with. */
export type PeerName = 'mcp-proxy' | 'supergateway';

export const PEERS: readonly PeerName[] = ['mcp-proxy', 'supergateway'];

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The desk as a stdio command: legacy mode, or `--stateless` (2026-07-28 only). */
export function deskCommand(stateless: boolean): string[] {
  return [process.execPath, INCIDENT_DESK_BIN, ...(stateless ? ['--stateless'] : [])];
}

/**
 * The arguments that start `peer` on `port` in front of the stdio `upstream`. mcp-proxy's default upstream protocol
 * is the 2025 initialize handshake, which the stateless desk refuses (it then exits before listening); in front of
 * that desk it gets `--upstream-protocol auto`, its own flag for fronting a 2026-07-28 server.
 */
export function peerArgs(peer: PeerName, repoRoot: string, port: number, upstream: string[], stateless: boolean): string[] {
  if (peer === 'mcp-proxy') {
    const bin = join(repoRoot, 'node_modules', 'mcp-proxy', 'dist', 'bin', 'mcp-proxy.mjs');
    return [bin, '--host', '127.0.0.1', '--port', String(port), '--server', 'stream', ...(stateless ? ['--upstream-protocol', 'auto'] : []), '--', ...upstream];
  }
  const bin = join(repoRoot, 'node_modules', 'supergateway', 'dist', 'index.js');
  const stdio = upstream.map(shellQuote).join(' ');
  return [bin, '--stdio', stdio, '--outputTransport', 'streamableHttp', '--stateful', '--port', String(port), '--logLevel', 'none'];
}

/** How to start `peer` in front of the desk. */
export async function peerDeskSpec(peer: PeerName, context: TargetContext, stateless: boolean): Promise<SpawnSpec> {
  const port = await freePort();
  return {
    command: process.execPath,
    args: peerArgs(peer, context.repoRoot, port, deskCommand(stateless), stateless),
    cwd: context.repoRoot,
    url: `http://127.0.0.1:${port}/mcp`,
    startTimeoutMs: context.startTimeoutMs,
  };
}
