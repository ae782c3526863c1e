/** @module Tests of the era verdicts: what a server/discover answer, a refused initialize and a failing request say about an upstream's era. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ProtocolError } from '../protocol/errors.js';
import { TransportError } from './transport/transport.js';
import { eraChangeOf, judgeDiscover, refusedByServer, refusesLegacy } from './era-probe.js';
import { GatewayError } from '../protocol/gateway-errors.js';

const DISCOVER = {
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: { listChanged: true } },
  instructions: 'Use me.',
  resultType: 'complete',
  ttlMs: 0,
  cacheScope: 'private',
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'desk', version: '2' } },
};

function unavailable(cause: TransportError): GatewayError {
  return new GatewayError('GW_ERR_UPSTREAM_UNAVAILABLE', `upstream is unavailable: ${cause.message}`, { cause });
}

test('a discover result naming 2026-07-28 is modern, with what the upstream offers', () => {
  const verdict = judgeDiscover({ result: DISCOVER }, true);
  assert.deepEqual(verdict, {
    era: 'modern',
    info: { capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'desk', version: '2' }, instructions: 'Use me.' },
  });
  const bare = judgeDiscover({ result: { supportedVersions: ['2027-01-01', '2026-07-28'] } }, false);
  assert.deepEqual(bare, { era: 'modern', info: { capabilities: {}, serverInfo: undefined, instructions: undefined } });
});

test('a discover result without 2026-07-28: legacy when it lists a legacy revision, else nothing we speak', () => {
  assert.equal(judgeDiscover({ result: { supportedVersions: ['2025-11-25'] } }, false).era, 'legacy');
  const none = judgeDiscover({ result: { supportedVersions: ['2027-03-01'] } }, false);
  assert.equal(none.era, 'none');
  assert.match(none.era === 'none' ? none.why : '', /speaks 2027-03-01/);
  assert.equal(judgeDiscover({ result: {} }, false).era, 'legacy', 'no supportedVersions: not a 2026 answer');
  assert.equal(judgeDiscover({ result: { supportedVersions: '2026-07-28' } }, false).era, 'legacy', 'not a list');
  assert.equal(judgeDiscover({ result: { supportedVersions: [2026] } }, false).era, 'legacy', 'not strings');
});

test('what legacy servers answer to an unknown request before initialize means legacy, on the same connection', () => {
  // The legacy incident desk over stdio answers -32601; over HTTP a 400 whose body has id null.
  const methodNotFound = judgeDiscover({ error: new ProtocolError(-32601, 'Method not found') }, true);
  assert.deepEqual(methodNotFound, { era: 'legacy', why: 'server/discover answered -32601 Method not found', fresh: false });
  const sessionRequired = new TransportError('HTTP 400', { status: 400, rpcError: { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' } });
  assert.deepEqual(judgeDiscover({ error: unavailable(sessionRequired) }, false), { era: 'legacy', why: 'server/discover got HTTP 400', fresh: false });
  for (const status of [404, 405, 406, 415]) {
    assert.equal(judgeDiscover({ error: unavailable(new TransportError(`HTTP ${status}`, { status })) }, false).era, 'legacy', `HTTP ${status}`);
  }
  assert.equal(judgeDiscover({ error: new ProtocolError(-32600, 'Server not initialized') }, true).era, 'legacy');
});

test('a connection that died or a probe nobody answered over stdio: legacy, on a new connection', () => {
  const closed = judgeDiscover({ error: new GatewayError('GW_ERR_UPSTREAM_CLOSED', 'closed') }, true);
  assert.deepEqual(closed, { era: 'legacy', why: 'the upstream closed the connection on server/discover', fresh: true });
  const silent = judgeDiscover({ error: new GatewayError('GW_ERR_UPSTREAM_TIMEOUT', 'no answer') }, true);
  assert.deepEqual(silent, { era: 'legacy', why: 'server/discover went unanswered', fresh: true });
});

test('no answer at all is no verdict: the connect fails with the error (HTTP timeouts, network, authorization, 5xx)', () => {
  const timeout = new GatewayError('GW_ERR_UPSTREAM_TIMEOUT', 'no answer');
  assert.deepEqual(judgeDiscover({ error: timeout }, false), { era: 'unreachable', error: timeout });
  const refused = unavailable(new TransportError('connect ECONNREFUSED'));
  assert.deepEqual(judgeDiscover({ error: refused }, false), { era: 'unreachable', error: refused });
  for (const status of [401, 403, 429, 500, 502]) {
    assert.equal(judgeDiscover({ error: unavailable(new TransportError(`HTTP ${status}`, { status })) }, false).era, 'unreachable', `HTTP ${status}`);
  }
  const auth = new GatewayError('GW_ERR_UPSTREAM_AUTH_REQUIRED', 'sign in');
  assert.equal(judgeDiscover({ error: auth }, false).era, 'unreachable');
});

test('-32022 on the probe: legacy when it lists legacy revisions only, asked again when it lists ours, else nothing we speak', () => {
  const legacyOnly = new ProtocolError(-32022, 'Unsupported protocol version: 2026-07-28', { supported: ['2025-06-18', '2025-03-26'], requested: '2026-07-28' });
  assert.equal(judgeDiscover({ error: legacyOnly }, false).era, 'legacy');
  const listsOurs = new ProtocolError(-32022, 'Unsupported', { supported: ['2026-07-28'], requested: '2026-07-28' });
  assert.equal(judgeDiscover({ error: listsOurs }, false).era, 'retry');
  const future = new ProtocolError(-32022, 'Unsupported', { supported: ['2027-03-01'], requested: '2026-07-28' });
  assert.equal(judgeDiscover({ error: future }, false).era, 'none');
  assert.equal(judgeDiscover({ error: new ProtocolError(-32022, 'Unsupported') }, false).era, 'legacy', 'without data: not recognisable');
});

test('-32020 and -32021 on the probe: only a 2026 server says that, and it refused us: no era we can use', () => {
  assert.equal(judgeDiscover({ error: new ProtocolError(-32020, 'Mcp-Method is required', { header: 'Mcp-Method' }) }, false).era, 'none');
  assert.equal(judgeDiscover({ error: new ProtocolError(-32021, 'needs roots', { requiredCapabilities: { roots: {} } }) }, true).era, 'none');
});

test('refusesLegacy: an initialize refused with -32022 listing a modern revision, as an answer or in an HTTP body', () => {
  const answer = new ProtocolError(-32022, 'Unsupported protocol version: 2025-11-25', { supported: ['2026-07-28'], requested: '2025-11-25' });
  assert.equal(refusesLegacy(answer), true);
  const body = new TransportError('HTTP 400', { status: 400, rpcError: answer.toJson() });
  assert.equal(refusesLegacy(unavailable(body)), true);
  assert.equal(refusesLegacy(new ProtocolError(-32022, 'x', { supported: ['2025-06-18'] })), false, 'a legacy server refusing a revision');
  assert.equal(refusesLegacy(new ProtocolError(-32602, 'bad')), false);
  assert.equal(refusesLegacy(new Error('boom')), false);
});

test('refusedByServer: an initialize the upstream answered (so server/discover may say why), not one that never got an answer', () => {
  assert.equal(refusedByServer(new ProtocolError(-32022, 'Unsupported protocol version')), true);
  assert.equal(refusedByServer(new ProtocolError(-32601, 'Method not found')), true);
  assert.equal(refusedByServer(unavailable(new TransportError('HTTP 400', { status: 400 }))), true);
  assert.equal(refusedByServer(new GatewayError('GW_ERR_UPSTREAM_CLOSED', 'exited')), false, 'a crashing process is not asked again');
  assert.equal(refusedByServer(unavailable(new TransportError('connect ECONNREFUSED'))), false);
  assert.equal(refusedByServer(unavailable(new TransportError('HTTP 401', { status: 401 }))), false);
  assert.equal(refusedByServer(unavailable(new TransportError('HTTP 502', { status: 502 }))), false);
  assert.equal(refusedByServer(new GatewayError('GW_ERR_UPSTREAM_TIMEOUT', 'slow')), false);
  assert.equal(refusedByServer(new GatewayError('GW_ERR_UPSTREAM_AUTH_REQUIRED', 'sign in')), false);
});

test('eraChangeOf: a legacy session lost or refused as legacy; a modern one refused as modern', () => {
  assert.equal(eraChangeOf('legacy', new TransportError('HTTP 404', { status: 404, sessionExpired: true })), 'forgot our session');
  assert.match(eraChangeOf('legacy', new ProtocolError(-32022, 'x', { supported: ['2026-07-28'] })) ?? '', /refuses legacy requests/);
  assert.equal(eraChangeOf('legacy', new ProtocolError(-32602, 'bad arguments')), undefined, "a tool's own error is not a change");
  assert.equal(eraChangeOf('legacy', new TransportError('HTTP 400', { status: 400 })), undefined);

  assert.match(eraChangeOf('modern', new ProtocolError(-32022, 'x', { supported: ['2025-11-25'] })) ?? '', /no longer serves 2026-07-28/);
  assert.equal(eraChangeOf('modern', new ProtocolError(-32022, 'x', { supported: ['2026-07-28'] })), undefined);
  assert.match(eraChangeOf('modern', unavailable(new TransportError('HTTP 400', { status: 400 }))) ?? '', /refused a 2026-07-28 request with HTTP 400/);
  assert.equal(eraChangeOf('modern', unavailable(new TransportError('HTTP 503', { status: 503 }))), undefined);
  assert.equal(eraChangeOf('modern', new ProtocolError(-32602, 'Invalid or expired requestState')), undefined);
  assert.equal(eraChangeOf('modern', new GatewayError('GW_ERR_UPSTREAM_TIMEOUT', 'slow')), undefined);
});
