/** @module Tests of era classification: every signal alone, every contradiction, and the error each refusal carries. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { headerSource } from './header-source.js';
import { classifyRequestEra } from './request-era.js';

const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const modernCall = { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'x', _meta: ENVELOPE } };
const legacyCall = { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'x' } };
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'h', version: '1' } } };
const answer = { jsonrpc: '2.0', id: 'sb-1', result: { action: 'accept' } };

type Row = [name: string, body: unknown, headers: Record<string, string>, era: 'legacy' | 'modern' | 'refused', code?: number];

const ROWS: Row[] = [
  ['initialize alone', initialize, {}, 'legacy'],
  ['a call in a session', legacyCall, { 'mcp-session-id': 's1', 'mcp-protocol-version': '2025-11-25' }, 'legacy'],
  ['a 2025-03-26 call without version header', legacyCall, { 'Mcp-Session-Id': 's1' }, 'legacy'],
  ['a legacy version header alone', legacyCall, { 'mcp-protocol-version': '2025-06-18' }, 'legacy'],
  ['an unknown old version header', legacyCall, { 'mcp-protocol-version': '2024-10-07' }, 'legacy'],
  ['a garbage version header', legacyCall, { 'mcp-protocol-version': 'latest' }, 'legacy'],
  ['nothing at all', legacyCall, {}, 'legacy'],
  ['a host answer', answer, { 'mcp-session-id': 's1' }, 'legacy'],
  ['a batch', [legacyCall], { 'mcp-session-id': 's1' }, 'legacy'],
  ['not even an object', 'hello', {}, 'legacy'],
  ['the envelope with its header', modernCall, { 'mcp-protocol-version': '2026-07-28' }, 'modern'],
  ['the envelope without header (the header check refuses it later)', modernCall, {}, 'modern'],
  ['the modern header without envelope (the envelope check refuses it later)', legacyCall, { 'MCP-Protocol-Version': '2026-07-28' }, 'modern'],
  ['a future version header', legacyCall, { 'mcp-protocol-version': '2027-01-01' }, 'modern'],
  ['a modern notification', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: ENVELOPE } }, { 'mcp-protocol-version': '2026-07-28' }, 'modern'],
  ['the envelope naming a legacy version, header equal (the -32022 check follows)', { ...modernCall, params: { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } } }, { 'mcp-protocol-version': '2025-11-25' }, 'modern'],
  ['the envelope with a legacy header', modernCall, { 'mcp-protocol-version': '2025-11-25' }, 'refused', -32020],
  ['the envelope with another modern header', modernCall, { 'mcp-protocol-version': '2027-01-01' }, 'refused', -32020],
  ['initialize carrying the envelope (a modern request for a removed method)', { ...initialize, params: { ...initialize.params, _meta: ENVELOPE } }, {}, 'modern'],
  ['initialize with the modern header', initialize, { 'mcp-protocol-version': '2026-07-28' }, 'refused', -32600],
  ['a session id with the envelope', modernCall, { 'mcp-session-id': 's1', 'mcp-protocol-version': '2026-07-28' }, 'refused', -32600],
  ['a session id with the modern header', legacyCall, { 'mcp-session-id': 's1', 'mcp-protocol-version': '2026-07-28' }, 'refused', -32600],
  ['a response with the modern header', answer, { 'mcp-protocol-version': '2026-07-28' }, 'refused', -32600],
  ['a batch with the modern header', [modernCall], { 'mcp-protocol-version': '2026-07-28' }, 'refused', -32600],
];

test('each request is classified by its signals, and contradictions are refused with the right code', () => {
  for (const [name, body, headers, era, code] of ROWS) {
    const verdict = classifyRequestEra(body, headerSource(headers));
    assert.equal(verdict.era, era, name);
    assert.ok(verdict.reason.length > 0, name);
    if (verdict.era === 'refused') {
      assert.equal(verdict.error.code, code, name);
      assert.ok(verdict.error.message.length > 0, name);
    } else {
      assert.equal(code, undefined, name);
    }
  }
});

test('a refusal keeps the request id so the error can answer it', () => {
  const verdict = classifyRequestEra(modernCall, headerSource({ 'mcp-session-id': 's' }));
  assert.equal(verdict.era, 'refused');
  assert.equal(verdict.era === 'refused' && verdict.id, 4);
  const mismatch = classifyRequestEra({ ...modernCall, id: 'abc' }, headerSource({ 'mcp-protocol-version': '2025-06-18' }));
  assert.deepEqual(mismatch.era === 'refused' && mismatch.error.data, { header: 'mcp-protocol-version' });
  assert.equal(mismatch.era === 'refused' && mismatch.id, 'abc');
  const batch = classifyRequestEra([modernCall], headerSource({ 'mcp-protocol-version': '2026-07-28' }));
  assert.equal(batch.era === 'refused' && batch.id, null);
});

test('the Fetch Headers object is a header source', () => {
  const verdict = classifyRequestEra(modernCall, new Headers({ 'MCP-Protocol-Version': '2026-07-28' }));
  assert.equal(verdict.era, 'modern');
});
