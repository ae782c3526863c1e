/** @module Keeps the wire catalogue (RpcCode) and docs/errors.md in step, and checks that each code is sent or recognised somewhere and declared nowhere else. */

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import type { GatewayErrorCodeValue } from '../protocol/gateway-errors.js';
import { RPC_CODE_FOR } from '../protocol/gateway-errors.js';
import { scanCodeUses } from './testing/code-scan.js';
import { ProtocolError, RpcCode } from '../protocol/errors.js';

const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');

type Use = 'sent' | 'recognised' | 'reserved';

/** The wire rows of docs/errors.md: name → [code, uses]. */
function documentedWireCodes(): Map<string, [number, Use[]]> {
  const rows = [...doc.matchAll(/^\| <a id="rpc-(\w+)"><\/a>(-?\d+) \| `(\w+)` \| ([a-z, ]+) \|/gm)];
  return new Map(
    rows.map((m) => {
      assert.equal(m[1], m[3], `the anchor of ${m[3]} names it`);
      return [m[3] ?? '', [Number(m[2]), (m[4] ?? '').split(', ') as Use[]]];
    }),
  );
}

/** What the runtime sources do with codes, read once (the parse takes a second or two). */
const sourceUses = scanCodeUses();

test('docs/errors.md lists exactly the wire codes of RpcCode, each once, with its number', () => {
  const documented = [...documentedWireCodes()].map(([name, [code]]) => [name, code]);
  assert.deepEqual(documented.sort(), Object.entries(RpcCode).sort());
  assert.equal(new Set(Object.values(RpcCode)).size, Object.keys(RpcCode).length, 'no number has two names (and so two meanings)');
});

test('-32001 means one thing: the session is not found; an upstream timeout is an upstream failure (-32000)', () => {
  assert.equal(RpcCode.SessionNotFound, -32001);
  assert.equal(RPC_CODE_FOR.GW_ERR_UPSTREAM_TIMEOUT, RpcCode.UpstreamUnavailable);
  assert.deepEqual(Object.entries(RPC_CODE_FOR).filter(([, code]) => code === -32001), [], 'no gateway code maps to -32001');
});

test('every wire code is used as docs/errors.md says: sent ones are put into errors, recognised ones compared with, reserved ones neither', () => {
  const uses = sourceUses;
  assert.ok(uses.files > 100, `read the sources (${uses.files} files)`);
  // A gateway code that is raised sends the wire code it maps to.
  const sent = new Set([...uses.wireRaised, ...[...uses.gatewayRaised].map((code) => RPC_CODE_FOR[code as GatewayErrorCodeValue])]);
  const wrong: string[] = [];
  for (const [name, [code, documented]] of documentedWireCodes()) {
    if (documented.includes('sent') && !sent.has(code)) wrong.push(`${name} (${code}) is documented as sent, but no error carries it`);
    if (documented.includes('recognised') && !uses.wireCompared.has(code)) wrong.push(`${name} (${code}) is documented as recognised, but no code is compared with it`);
    if (documented.includes('reserved') && (sent.has(code) || uses.wireCompared.has(code))) wrong.push(`${name} (${code}) is documented as reserved, but it is used`);
    if (documented.length === 0 || documented.some((use) => !['sent', 'recognised', 'reserved'].includes(use))) wrong.push(`${name}: unknown use ${documented.join(', ')}`);
  }
  assert.deepEqual(wrong, []);
});

test('no numeric code is written outside the catalogue where an error is built or a code compared', () => {
  assert.deepEqual(sourceUses.literalCodes.sort(), [], 'take the number from RpcCode');
});

test('the scanner tells raising from comparing and listing, and sees literals and constants', () => {
  const uses = scanCodeUses(
    new Map([
      [
        'x/raises.ts',
        `const TIMEOUT = -32005;
         const reason = flag ? 'GW_ERR_A' : GatewayErrorCode.GW_ERR_B;
         throw new GatewayError(reason, 'm');
         send({ code: RpcCode.InternalError, message: 'm' });
         new ProtocolError(TIMEOUT, 'm');`,
      ],
      [
        'x/compares.ts',
        `if (error.code === 'GW_ERR_C' || rpc.code !== RpcCode.HeaderMismatch) {}
         const FAULTS = new Set(['GW_ERR_D']);
         switch (code) { case -32601: break; }
         if (exit.code === 2) {}`,
      ],
    ]),
  );
  assert.deepEqual([...uses.gatewayRaised].sort(), ['GW_ERR_A', 'GW_ERR_B']);
  assert.deepEqual([...uses.wireRaised].sort(), [-32005, -32603]);
  assert.deepEqual([...uses.wireCompared].sort(), [-32020, -32601]);
  assert.deepEqual(uses.literalCodes.sort(), ['x/compares.ts: -32601', 'x/raises.ts: -32005']);
});

test('a ProtocolError reaches the peer as its code, message and data', () => {
  assert.deepEqual(new ProtocolError(RpcCode.SessionNotFound, 'Session not found').toJson(), { code: -32001, message: 'Session not found' });
  const relayed = ProtocolError.from({ code: RpcCode.UrlElicitationRequired, message: 'sign in', data: { elicitations: [] } });
  assert.deepEqual(relayed.toJson(), { code: -32042, message: 'sign in', data: { elicitations: [] } });
});
