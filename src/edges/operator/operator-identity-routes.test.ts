/**
 * @module The operator API with identities: each operator sees only the questions they may answer (list, detail,
 * events, answer), the console session needs its CSRF token on an answer, a four-eyes accept answers 202 or 409,
 * and /api/auth and /api/session tell the console what it needs.
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { Principal } from '../../access/principal.js';
import { createSealer, sealSession } from '../auth/operator-session-seal.js';
import type { OperatorTokenVerifier } from '../auth/operator-token-verifier.js';
import { readSse } from '../http/testing/sse.js';
import { noteRemoteAddress } from '../http/modern-principal.js';
import { createOperatorAuth, SESSION_COOKIE } from './operator-auth.js';
import { createOperatorRoutes } from './operator-routes.js';
import { FakeOperatorDesk } from './testing/fake-desk.js';

const ISSUER = 'https://id.example';
const ADA: Principal = { issuer: ISSUER, subject: 'ada', name: 'Ada', groups: ['desk-ops'], scopes: [] };
const BEN: Principal = { issuer: ISSUER, subject: 'ben', name: 'Ben', groups: ['billing-ops'], scopes: [] };
const TOKENS: Record<string, Principal> = { 'token-of-ada': ADA, 'token-of-ben': BEN };
const BASE = 'http://127.0.0.1:3939';

const verifier: OperatorTokenVerifier = {
  verify: async (token) => {
    const operator = TOKENS[token];
    return operator ? { ok: true, operator } : { ok: false, unavailable: false, reason: 'signature verification failed' };
  },
};

function setup() {
  const desk = new FakeOperatorDesk();
  desk.answerers = [{ groups: ['desk-ops'], upstreams: ['desk'] }, { groups: ['billing-ops'], upstreams: ['billing'] }];
  const sealer = createSealer('a-cookie-secret-of-at-least-32-characters!');
  const auth = createOperatorAuth({ token: 'shared-token-0123456789', tokenMode: 'loopback', oidc: { verifier, sealer } });
  const routes = createOperatorRoutes({ desk, auth, token: 'shared-token-0123456789' });
  const call = async (path: string, init: RequestInit & { address?: string } = {}): Promise<Response> => {
    const req = new Request(`${BASE}${path}`, init);
    noteRemoteAddress(req, init.address ?? '192.0.2.10');
    const response = await routes.handle(req);
    assert.ok(response);
    return response;
  };
  const as = (token: string) => ({ authorization: `Bearer ${token}` });
  const answer = (id: string, body: unknown, headers: Record<string, string>) =>
    call(`/api/questions/${id}/answer`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { desk, sealer, routes, call, as, answer };
}

describe('operator API: who sees and answers what', () => {
  it('lists, shows and answers only the questions of the operator\'s upstreams; another\'s is 404, as an unknown id', async () => {
    const { desk, call, as, answer } = setup();
    const deskQuestion = desk.add({ origin: { upstream: 'desk', tool: 'desk_restart', principal: 'host-1 (https://id.example)', clientName: 'claude-code', arguments: { service: 'payments', token: '[redacted]' } } });
    const billing = desk.add({ origin: { upstream: 'billing', tool: 'billing_refund' } });
    const listed = (await (await call('/api/questions', { headers: as('token-of-ada') })).json()) as { id: string; clientName?: string; arguments?: unknown; principal?: string }[];
    assert.deepEqual(listed.map((q) => q.id), [deskQuestion.id]);
    assert.deepEqual([listed[0]?.principal, listed[0]?.clientName, listed[0]?.arguments], ['host-1 (https://id.example)', 'claude-code', { service: 'payments', token: '[redacted]' }]);
    assert.deepEqual(((await (await call('/api/questions', { headers: as('token-of-ben') })).json()) as { id: string }[]).map((q) => q.id), [billing.id]);
    const hidden = await call(`/api/questions/${billing.id}`, { headers: as('token-of-ada') });
    const unknown = await call('/api/questions/q-404', { headers: as('token-of-ada') });
    assert.deepEqual([hidden.status, (await hidden.json()).error.code], [unknown.status, (await unknown.json()).error.code]);
    assert.equal(hidden.status, 404);
    const refused = await answer(billing.id, { action: 'decline' }, as('token-of-ada'));
    assert.equal(refused.status, 404);
    assert.equal(desk.get(billing.id) !== undefined && (await desk.get(billing.id))?.question.state, 'delivered');
    const taken = await answer(deskQuestion.id, { action: 'decline' }, as('token-of-ada'));
    assert.equal(taken.status, 200);
    assert.deepEqual(((await taken.json()) as { question: { answeredBy: unknown } }).question.answeredBy, { kind: 'operator', name: 'Ada', subject: 'ada', issuer: ISSUER });
    assert.deepEqual(desk.principals, [ADA, ADA]);
  });

  it('sends each operator only the events of questions they may answer', async () => {
    const { desk, routes, call, as } = setup();
    const response = await call('/api/questions/events', { headers: as('token-of-ben') });
    const stream = readSse(response);
    assert.equal((await stream.next())?.event, 'ready');
    desk.add({ origin: { upstream: 'desk' } });
    const billing = desk.add({ origin: { upstream: 'billing' } });
    const event = await stream.next();
    assert.equal((JSON.parse(event?.data ?? '{}') as { question: { id: string } }).question.id, billing.id, 'the desk question was never sent');
    routes.close();
  });

  it('a console session answers only with its CSRF token and from its own origin; bearer requests need neither', async () => {
    const { desk, sealer, call, answer } = setup();
    const question = desk.add({ origin: { upstream: 'desk' } });
    const { cookie, csrf } = await sealSession(sealer, ADA, 600);
    const withCookie = { cookie: `${SESSION_COOKIE}=${cookie}` };
    const session = (await (await call('/api/session', { headers: withCookie })).json()) as Record<string, unknown>;
    assert.deepEqual({ ...session, expiresAt: typeof session.expiresAt }, { issuer: ISSUER, subject: 'ada', name: 'Ada', groups: ['desk-ops'], via: 'session', csrf, expiresAt: 'string' });
    const noToken = await answer(question.id, { action: 'decline' }, withCookie);
    assert.deepEqual([noToken.status, (await noToken.json()).error.code], [403, 'CSRF_REJECTED']);
    const foreign = await answer(question.id, { action: 'decline' }, { ...withCookie, 'x-csrf-token': csrf, origin: 'https://evil.example' });
    assert.equal(foreign.status, 403);
    assert.equal(desk.answers.length, 0, 'nothing reached the desk');
    const good = await answer(question.id, { action: 'decline' }, { ...withCookie, 'x-csrf-token': csrf, origin: BASE });
    assert.equal(good.status, 200);
    const bearer = (await (await call('/api/session', { headers: { authorization: 'Bearer token-of-ben' } })).json()) as Record<string, unknown>;
    assert.deepEqual(bearer, { issuer: ISSUER, subject: 'ben', name: 'Ben', groups: ['billing-ops'], via: 'bearer' }, 'no CSRF token for bearer requests');
  });

  it('/api/auth needs no credential and tells what this client may use; the shared token only from loopback here', async () => {
    const { call } = setup();
    assert.deepEqual(await (await call('/api/auth')).json(), { oidc: true, token: false, signIn: '/console/login' });
    assert.deepEqual(await (await call('/api/auth', { address: '127.0.0.1' })).json(), { oidc: true, token: true, signIn: '/console/login' });
    const remote = await call('/api/questions', { headers: { authorization: 'Bearer shared-token-0123456789' } });
    assert.equal(remote.status, 401);
    assert.equal(remote.headers.get('www-authenticate'), 'Bearer realm="switchboard"');
    assert.equal((await call('/api/questions', { headers: { authorization: 'Bearer shared-token-0123456789' }, address: '127.0.0.1' })).status, 200);
  });

  it('a four-eyes accept that does not settle answers 202 awaiting-approval; the same operator again 409 ALREADY_APPROVED', async () => {
    const { desk, as, answer, call } = setup();
    const question = desk.add({ origin: { upstream: 'desk', tool: 'desk_restart' } });
    desk.approvalsOf = () => ({ needed: 2, approvers: [{ name: 'Ada', subject: 'ada', issuer: ISSUER, at: '2025-06-01T12:00:05.000Z' }] });
    let approved = false;
    desk.pendingApproval = (record) => {
      if (approved) return { ok: false, kind: 'already-approved', reason: 'You approved it already', question: record };
      approved = true;
      return { ok: true, question: record, awaiting: { approvals: 1, needed: 2 } };
    };
    const first = await answer(question.id, { action: 'accept', content: { confirm: true } }, as('token-of-ada'));
    assert.equal(first.status, 202);
    const body = (await first.json()) as { state: string; approvals: number; needed: number; question: { state: string; approvals: unknown } };
    assert.deepEqual([body.state, body.approvals, body.needed, body.question.state], ['awaiting-approval', 1, 2, 'delivered']);
    assert.deepEqual(body.question.approvals, { needed: 2, approvers: [{ name: 'Ada', subject: 'ada', issuer: ISSUER, at: '2025-06-01T12:00:05.000Z' }] });
    const again = await answer(question.id, { action: 'accept', content: { confirm: true } }, as('token-of-ada'));
    assert.deepEqual([again.status, (await again.json()).error.code], [409, 'ALREADY_APPROVED']);
    const shown = (await (await call(`/api/questions/${question.id}`, { headers: as('token-of-ada') })).json()) as { question: { approvals?: { needed: number } } };
    assert.equal(shown.question.approvals?.needed, 2, 'the detail shows the approvals too');
  });
});
