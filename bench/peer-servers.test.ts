/** @module Tests of the elicitation cells' peer commands: the same flags as the plain-call peer targets, the desk as upstream. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { deskCommand, peerArgs, PEERS } from './peer-servers.js';
import { TARGETS } from './targets.js';

/** The flags of a peer command, with its port, its upstream command and the scratch folder left out. */
function flags(args: string[]): string[] {
  const end = args.indexOf('--');
  const own = end >= 0 ? args.slice(0, end) : args;
  return own.map((arg, i) => (own[i - 1] === '--port' ? 'PORT' : own[i - 1] === '--stdio' ? 'UPSTREAM' : arg));
}

test('each peer starts in front of the desk with the flags it has as a plain-call target', async () => {
  for (const peer of PEERS) {
    const target = TARGETS.find((candidate) => candidate.name === peer);
    assert.ok(target, peer);
    const spec = await target.spawnSpec({ repoRoot: '/repo', tmpDir: '/tmp', startTimeoutMs: 1 });
    assert.deepEqual(flags(peerArgs(peer, '/repo', 1234, deskCommand(false), false)), flags(spec.args), peer);
  }
});

test('the desk is the upstream command: after `--` for mcp-proxy, one quoted --stdio line for supergateway', () => {
  const desk = deskCommand(true);
  assert.equal(desk.at(-1), '--stateless');
  const proxy = peerArgs('mcp-proxy', '/repo', 1, desk, true);
  assert.deepEqual(proxy.slice(proxy.indexOf('--') + 1), desk);
  const supergateway = peerArgs('supergateway', '/repo', 1, desk, true);
  assert.equal(supergateway[supergateway.indexOf('--stdio') + 1], desk.map((word) => `'${word}'`).join(' '));
});

test('mcp-proxy in front of the stateless desk speaks its 2026-07-28 upstream protocol (auto), not the 2025 handshake', () => {
  const args = peerArgs('mcp-proxy', '/repo', 1, deskCommand(true), true);
  assert.deepEqual(args.slice(args.indexOf('--upstream-protocol'), args.indexOf('--upstream-protocol') + 2), ['--upstream-protocol', 'auto']);
  assert.ok(!peerArgs('mcp-proxy', '/repo', 1, deskCommand(false), false).includes('--upstream-protocol'));
});
