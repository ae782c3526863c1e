/** @module Keeps docs/errors.md and the gateway code catalogue in step, pins each code's JSON-RPC mapping, and checks that every code is raised. */

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { requestStateError } from '../bridge/handle-errors.js';
import { ProtocolError, RpcCode } from '../protocol/errors.js';
import { GatewayError, GatewayErrorCode, RPC_CODE_FOR, toProtocolError } from '../protocol/gateway-errors.js';
import { scanCodeUses } from './testing/code-scan.js';

const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');

test('docs/errors.md documents exactly the codes of the catalogue, with the same JSON-RPC code', () => {
  const documented = [...doc.matchAll(/<a id="(GW_[A-Z_]+)"><\/a>`\1` \| (-?\d+) \|/g)].map((m) => [m[1], Number(m[2])]);
  const catalogue = Object.keys(GatewayErrorCode).map((code) => [code, RPC_CODE_FOR[code as keyof typeof GatewayErrorCode]]);
  assert.deepEqual(documented.sort(), catalogue.sort());
});

test('a gateway error reaches the wire with its JSON-RPC code and its catalogue name', () => {
  const wire = new GatewayError('GW_ERR_UNKNOWN_TOOL', 'Unknown tool: x').toProtocolError().toJson();
  assert.deepEqual(wire, { code: -32602, message: 'Unknown tool: x', data: { reason: 'GW_ERR_UNKNOWN_TOOL' } });
});

test('a gateway error, and what a peer sees of it or of an internal error, carries no URL credentials', () => {
  const why = 'fetch failed: http://u:pw@h/mcp?api_key=K';
  const error = new GatewayError('GW_ERR_UPSTREAM_UNAVAILABLE', `upstream 'v' is unavailable: ${why}`);
  // Its message is logged, recorded in composite runs and relayed: redacted from the start.
  assert.equal(error.message, "upstream 'v' is unavailable: fetch failed: http://***@h/mcp?api_key=***");
  assert.equal(error.toProtocolError().message, error.message);
  assert.equal(toProtocolError(new Error(why)).message, 'Internal error: fetch failed: http://***@h/mcp?api_key=***');
});

test('an upstream error is relayed unchanged and anything else becomes an internal error', () => {
  const upstream = new ProtocolError(-32042, 'URL elicitation required', { elicitations: [] });
  assert.equal(toProtocolError(upstream), upstream);
  assert.equal(toProtocolError(new Error('boom')).code, -32603);
});

test('the request-state rejections the bridge builds use catalogue names and codes', () => {
  for (const reason of ['bad-mac', 'replayed', 'gone'] as const) {
    const error = requestStateError(reason);
    assert.equal(error.code, RPC_CODE_FOR.GW_ERR_REQUEST_STATE_REJECTED);
    assert.deepEqual(error.data, { reason: GatewayErrorCode.GW_ERR_REQUEST_STATE_REJECTED, failure: reason });
  }
  const busy = requestStateError('ledger-full');
  assert.equal(busy.code, RPC_CODE_FOR.GW_ERR_REQUEST_STATE_BUSY);
  assert.deepEqual(busy.data, { reason: GatewayErrorCode.GW_ERR_REQUEST_STATE_BUSY, failure: 'ledger-full' });
});

test('every code of the catalogue is raised somewhere in src (outside the catalogue), not only compared against or listed', () => {
  const uses = scanCodeUses();
  assert.ok(uses.files > 100, `read the sources (${uses.files} files)`);
  const unraised = Object.keys(GatewayErrorCode).filter((code) => !uses.gatewayRaised.has(code));
  assert.deepEqual(unraised, [], 'catalogued codes no code path raises: wire them or remove them (and their docs/errors.md line)');
  const uncatalogued = [...uses.gatewayRaised].filter((code) => !(code in GatewayErrorCode));
  assert.deepEqual(uncatalogued, [], 'codes raised that the catalogue does not hold');
});

test('each catalogue name is its own value, and maps to a code of the wire catalogue', () => {
  const wire = new Set<number>(Object.values(RpcCode));
  for (const [name, value] of Object.entries(GatewayErrorCode)) {
    assert.equal(value, name);
    assert.ok(wire.has(RPC_CODE_FOR[name as keyof typeof GatewayErrorCode]), `${name} maps to ${RPC_CODE_FOR[name as keyof typeof GatewayErrorCode]}, which RpcCode does not hold`);
  }
});
