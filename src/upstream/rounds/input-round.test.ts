/** @module Tests of one round of embedded input requests: the questions made of them, answers collected by key, failures and abandon. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ProtocolError } from '../../protocol/errors.js';
import type { JsonRpcRequest } from '../../protocol/jsonrpc.js';
import type { Transport } from '../transport/transport.js';
import { askRound } from './input-round.js';
import { silentLogger } from '../../core/log.js';
import { spec } from '../../app/testing/gateway-doubles.js';
import { UpstreamSession } from '../session.js';

function modernSession(): UpstreamSession {
  const transport: Transport = { start: async () => undefined, send: async () => undefined, close: async () => undefined };
  const session = new UpstreamSession(spec('desk'), transport, { onRequest() {}, onNotification() {}, onClose() {} }, silentLogger);
  session.adoptModern({ capabilities: {}, serverInfo: undefined, instructions: undefined });
  return session;
}

const FORM = { method: 'elicitation/create' as const, params: { message: 'Go?', requestedSchema: { type: 'object', properties: {} } } };
const URL_MODE = { method: 'elicitation/create' as const, params: { mode: 'url', message: 'Sign in', url: 'https://idp.example/x' } };
const ROOTS = { method: 'roots/list' as const };

test('each input request becomes a request of ours; a URL elicitation gets the elicitationId a 2025-11-25 host needs', async () => {
  const session = modernSession();
  const delivered: JsonRpcRequest[] = [];
  const round = askRound({ go: FORM, login: URL_MODE, roots: ROOTS }, { session, deliver: (request) => delivered.push(request) });
  assert.deepEqual(delivered.map((r) => r.method), ['elicitation/create', 'elicitation/create', 'roots/list']);
  const [form, url, roots] = delivered;
  assert.ok(form && url && roots);
  assert.match(String(form.id), /^sb-in-\d+$/);
  assert.deepEqual(form.params, FORM.params);
  assert.deepEqual(url.params, { ...URL_MODE.params, elicitationId: url.id });
  assert.equal(Object.hasOwn(roots, 'params'), false);
  assert.equal(new Set(delivered.map((r) => r.id)).size, 3, 'ids are unique');

  session.respond(roots.id, { roots: [] });
  session.respond(url.id, { action: 'accept' });
  session.respond(form.id, { action: 'decline' });
  assert.deepEqual(await round.outcome, { ok: true, answers: { roots: { roots: [] }, login: { action: 'accept' }, go: { action: 'decline' } } });
});

test('an error for any key fails the round once all are settled, naming the first key in the upstream\'s order', async () => {
  const session = modernSession();
  const delivered: JsonRpcRequest[] = [];
  const round = askRound({ first: FORM, second: ROOTS }, { session, deliver: (request) => delivered.push(request) });
  let settled = false;
  void round.outcome.then(() => (settled = true));
  session.respondError(delivered[1]?.id ?? '', new ProtocolError(-32601, 'no roots'));
  await new Promise((r) => setImmediate(r));
  assert.equal(settled, false, 'the other question is still open');
  session.respondError(delivered[0]?.id ?? '', new ProtocolError(-1, 'refused'));
  assert.deepEqual(await round.outcome, { ok: false, reason: "its elicitation 'first' was answered with an error: refused (-1)" });
});

test('a question answered at once while being delivered (nobody to ask) still counts', async () => {
  const session = modernSession();
  const round = askRound({ go: FORM }, { session, deliver: (request) => session.respond(request.id, { action: 'cancel' }) });
  assert.deepEqual(await round.outcome, { ok: true, answers: { go: { action: 'cancel' } } });
});

test('abandon: answers still to come are dropped', async () => {
  const session = modernSession();
  const delivered: JsonRpcRequest[] = [];
  const round = askRound({ go: FORM }, { session, deliver: (request) => delivered.push(request) });
  round.abandon();
  assert.equal(session.isLocalQuestion(delivered[0]?.id ?? ''), false);
  let settled = false;
  void round.outcome.then(() => (settled = true));
  session.respond(delivered[0]?.id ?? '', { action: 'accept' });
  await new Promise((r) => setImmediate(r));
  assert.equal(settled, false);
});
