/** @module Tests of the per-request envelope: every malformed shape, the version check, building and stripping. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { JsonObject } from './jsonrpc.js';
import {
  envelopeProtocolVersion,
  hasRequestEnvelope,
  parseRequestEnvelope,
  stripRequestEnvelope,
  upstreamEnvelope,
  withRequestEnvelope,
} from './request-envelope.js';

const V = 'io.modelcontextprotocol/protocolVersion';
const C = 'io.modelcontextprotocol/clientCapabilities';
const I = 'io.modelcontextprotocol/clientInfo';
const L = 'io.modelcontextprotocol/logLevel';

const GOOD = { [V]: '2026-07-28', [C]: { elicitation: { form: {} } } };

function params(meta: unknown): JsonObject {
  return { name: 'restart_service', arguments: { service: 'payments-api' }, _meta: meta };
}

test('a complete envelope parses, with its optional keys', () => {
  const parsed = parseRequestEnvelope(params({ ...GOOD, [I]: { name: 'host', version: '1', title: 'Host' }, [L]: 'warning', progressToken: 7 }));
  assert.deepEqual(parsed, {
    ok: true,
    envelope: { protocolVersion: '2026-07-28', clientCapabilities: { elicitation: { form: {} } }, clientInfo: { name: 'host', version: '1', title: 'Host' }, logLevel: 'warning' },
  });
  assert.deepEqual(parseRequestEnvelope(params({ [V]: '2026-07-28', [C]: {} })), { ok: true, envelope: { protocolVersion: '2026-07-28', clientCapabilities: {} } });
});

test('each malformed envelope is -32602 naming the key, an unserved version is -32022 listing what is served', () => {
  const cases: [string, unknown, number, unknown][] = [
    ['no params', undefined, -32602, { field: '_meta' }],
    ['no _meta', { name: 'x' }, -32602, { field: '_meta' }],
    ['_meta not an object', { _meta: [] }, -32602, { field: '_meta' }],
    ['no version', params({ [C]: {} }), -32602, { field: `_meta.${V}` }],
    ['empty version', params({ [V]: '', [C]: {} }), -32602, { field: `_meta.${V}` }],
    ['numeric version', params({ [V]: 20260728, [C]: {} }), -32602, { field: `_meta.${V}` }],
    ['no capabilities', params({ [V]: '2026-07-28' }), -32602, { field: `_meta.${C}` }],
    ['capabilities null', params({ [V]: '2026-07-28', [C]: null }), -32602, { field: `_meta.${C}` }],
    ['capabilities array', params({ [V]: '2026-07-28', [C]: [] }), -32602, { field: `_meta.${C}` }],
    ['clientInfo without version', params({ ...GOOD, [I]: { name: 'h' } }), -32602, { field: `_meta.${I}` }],
    ['clientInfo a string', params({ ...GOOD, [I]: 'h' }), -32602, { field: `_meta.${I}` }],
    ['unknown log level', params({ ...GOOD, [L]: 'verbose' }), -32602, { field: `_meta.${L}` }],
    ['fractional progress token', params({ ...GOOD, progressToken: 1.5 }), -32602, { field: '_meta.progressToken' }],
    ['a legacy version', params({ [V]: '2025-11-25', [C]: {} }), -32022, { supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'], requested: '2025-11-25' }],
    ['a future version', params({ [V]: '2027-01-01' }), -32022, { supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'], requested: '2027-01-01' }],
  ];
  for (const [name, input, code, data] of cases) {
    const parsed = parseRequestEnvelope(input);
    assert.equal(parsed.ok, false, name);
    if (parsed.ok) continue;
    assert.equal(parsed.error.code, code, name);
    assert.deepEqual(parsed.error.data, data, name);
    assert.ok(parsed.error.message.length > 0, name);
  }
  const narrowed = parseRequestEnvelope(params({ [V]: '2027-01-01', [C]: {} }), ['2026-07-28']);
  assert.deepEqual(!narrowed.ok && narrowed.error.data, { supported: ['2026-07-28'], requested: '2027-01-01' });
});

test('any envelope key marks a request as modern; other _meta keys do not', () => {
  const cases: [unknown, boolean][] = [
    [params(GOOD), true],
    [params({ [L]: 'info' }), true],
    [params({ [I]: { name: 'x', version: '1' } }), true],
    [params({ progressToken: 1, 'io.modelcontextprotocol/related-task': { taskId: 't' } }), false],
    [{ name: 'x' }, false],
    [undefined, false],
    [params('nope'), false],
  ];
  for (const [input, expected] of cases) assert.equal(hasRequestEnvelope(input), expected, JSON.stringify(input));
  assert.equal(envelopeProtocolVersion(params(GOOD)), '2026-07-28');
  assert.equal(envelopeProtocolVersion(params({ [V]: 1 })), undefined);
});

test('the envelope for an upstream carries the host capabilities in 2026 form, and replaces any previous one', () => {
  const envelope = upstreamEnvelope({
    hostCapabilities: { elicitation: {}, roots: { listChanged: true }, tasks: {} },
    hostRevision: '2025-06-18',
    clientInfo: { name: 'switchboard', version: '0.1.0' },
    logLevel: 'info',
  });
  assert.deepEqual(envelope, {
    protocolVersion: '2026-07-28',
    clientCapabilities: { elicitation: { form: {} }, roots: {} },
    clientInfo: { name: 'switchboard', version: '0.1.0' },
    logLevel: 'info',
  });
  const original = Object.freeze({ name: 't', _meta: Object.freeze({ progressToken: 'p', [V]: 'old', [L]: 'debug', traceparent: 'tp' }) });
  const built = withRequestEnvelope(original, { protocolVersion: '2026-07-28', clientCapabilities: {} });
  assert.deepEqual(built, { name: 't', _meta: { progressToken: 'p', traceparent: 'tp', [V]: '2026-07-28', [C]: {} } });
  assert.equal(parseRequestEnvelope(built).ok, true, 'what is built parses');
  assert.deepEqual(withRequestEnvelope(undefined, envelope)._meta, {
    [V]: '2026-07-28',
    [C]: { elicitation: { form: {} }, roots: {} },
    [I]: { name: 'switchboard', version: '0.1.0' },
    [L]: 'info',
  });
});

test('stripping removes exactly the envelope keys, and _meta when nothing is left, without touching the input', () => {
  const cases: [JsonObject | undefined, JsonObject | undefined][] = [
    [undefined, undefined],
    [{ name: 'x' }, { name: 'x' }],
    [params(GOOD), { name: 'restart_service', arguments: { service: 'payments-api' } }],
    [params({ ...GOOD, [I]: { name: 'h', version: '1' }, [L]: 'info', progressToken: 3 }), { name: 'restart_service', arguments: { service: 'payments-api' }, _meta: { progressToken: 3 } }],
    [{ _meta: { 'io.modelcontextprotocol/related-task': { taskId: 'a' } } }, { _meta: { 'io.modelcontextprotocol/related-task': { taskId: 'a' } } }],
  ];
  for (const [input, expected] of cases) {
    const before = JSON.stringify(input);
    assert.deepEqual(stripRequestEnvelope(input), expected, before);
    assert.equal(JSON.stringify(input), before, 'input unchanged');
  }
  const proto = JSON.parse('{"__proto__":{"polluted":true},"_meta":{"io.modelcontextprotocol/logLevel":"info"}}') as JsonObject;
  const stripped = stripRequestEnvelope(proto);
  assert.ok(stripped && Object.hasOwn(stripped, '__proto__') && !('polluted' in {}), '__proto__ stays data');
});
