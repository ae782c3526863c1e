/**
 * @module Issue 14 in front of a real gateway, through the HTTP edge: hosts authenticate on every host path, the
 * policy hides and refuses tools before anything reaches an upstream (both eras), a session or handle of another
 * principal is refused and counted, and the Protected Resource Metadata is served. The authenticator is a table
 * here (edges/auth tests the real token checks).
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { Principal } from '../access/principal.js';
import type { PolicySettings } from '../access/policy.js';
import { silentLogger } from '../core/log.js';
import { captureLog } from '../core/testing/capture-log.js';
import type { HostAuth } from '../edges/http/host-identity.js';
import { createMcpHttpHandler } from '../edges/http/mcp-handler.js';
import { BASE, initializeBody, mcpPost, readSse } from '../edges/http/testing/sse.js';
import { testHttpSettings } from '../edges/http/testing/http-settings.js';
import { createGatewayMetrics } from '../observability/gateway-metrics.js';
import { MetricsRegistry } from '../observability/metrics.js';
import { sampleValue } from '../observability/testing/sample-value.js';
import { fakeUpstreamFactory } from '../upstream/testing/fake-upstream.js';
import { QuestionDesk } from '../questions/desk.js';
import { MemoryQuestionStore } from '../store/memory/memory-question-store.js';
import { createGateway } from './gateway.js';
import { config, openQuestion, spec } from './testing/gateway-doubles.js';

const ISSUER = 'https://id.example';
const PEOPLE: Record<string, Principal> = {
  ada: { issuer: ISSUER, subject: 'ada', groups: ['ops'], scopes: [], name: 'Ada' },
  bob: { issuer: ISSUER, subject: 'bob', groups: ['dev'], scopes: [] },
};
const CHALLENGE = `Bearer resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp"`;

/** Bearer <name> is that person; anything else is refused the way the real authenticator refuses it. */
const tableAuth: HostAuth = {
  enabled: true,
  async authenticate(authorization) {
    if (authorization === null) return { ok: false, status: 401, description: 'no access token', wwwAuthenticate: CHALLENGE };
    const principal = PEOPLE[authorization.replace(/^Bearer /, '')];
    return principal ? { ok: true, principal } : { ok: false, status: 401, error: 'invalid_token', description: 'unknown token', wwwAuthenticate: `${CHALLENGE}, error="invalid_token"` };
  },
  metadata: () => ({ resource: `${BASE}/mcp`, authorization_servers: [ISSUER] }),
};

const POLICY: PolicySettings = { default: 'allow', rules: [{ effect: 'deny', groups: ['dev'], tools: ['*restart_service'] }] };

async function setup(logger = silentLogger) {
  const calls: string[] = [];
  const up = fakeUpstreamFactory({
    ask_first: async (_call, server) => {
      const answer = await server.ask('elicitation/create', { message: 'Go?', requestedSchema: { type: 'object', properties: { go: { type: 'boolean' } } } });
      return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
    },
    restart_service: () => (calls.push('restart_service'), { content: [{ type: 'text', text: 'restarted' }] }),
    status: () => (calls.push('status'), { content: [{ type: 'text', text: 'green' }] }),
  });
  const cfg = { ...config([spec('desk')]), policy: { ...POLICY, answerers: [] } };
  const registry = new MetricsRegistry();
  const metrics = createGatewayMetrics(registry);
  const desk = new QuestionDesk({ store: new MemoryQuestionStore(), logger, operatorAvailable: true });
  const gateway = createGateway(cfg, { logger, openTransport: () => up.open(), metrics, questions: { desk } });
  await gateway.ready;
  const handler = createMcpHttpHandler(gateway, { ...testHttpSettings(cfg.http, logger), hostAuth: tableAuth, refused: (why) => metrics.accessRefused(why) });
  return {
    handle: (req: Request) => handler.handle(req),
    desk,
    calls,
    refusals: async (reason: string) => sampleValue(await registry.render(), `switchboard_access_refusals_total{reason="${reason}"}`) ?? 0,
    async close() {
      await handler.close();
      await gateway.close();
    },
  };
}

type Edge = Awaited<ReturnType<typeof setup>>;

async function openSession(edge: Edge, who: string): Promise<Record<string, string>> {
  const response = await edge.handle(mcpPost(initializeBody(0), { authorization: `Bearer ${who}` }));
  assert.equal(response.status, 200);
  await readSse(response).rest();
  const headers = { authorization: `Bearer ${who}`, 'mcp-session-id': response.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': '2025-11-25' };
  assert.equal((await edge.handle(mcpPost({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers))).status, 202);
  return headers;
}

async function rpc(edge: Edge, headers: Record<string, string>, id: number, method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const response = await edge.handle(mcpPost({ jsonrpc: '2.0', id, method, params }, headers));
  assert.equal(response.status, 200);
  const messages = (await readSse(response).rest()).filter((event) => event.data !== '').map((event) => JSON.parse(event.data) as Record<string, unknown>);
  const answer = messages.find((message) => message.id === id);
  assert.ok(answer, `an answer to ${method}`);
  return answer;
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'modern-host', version: '1' },
};

async function modern(edge: Edge, who: string | undefined, id: number, method: string, params: Record<string, unknown> = {}): Promise<Response> {
  const headers: Record<string, string> = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}) };
  if (who) headers.authorization = `Bearer ${who}`;
  return edge.handle(mcpPost({ jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META } }, headers));
}

async function modernBody(response: Response): Promise<Record<string, unknown>> {
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('text/event-stream')) return JSON.parse((await readSse(response).rest()).at(-1)?.data ?? '{}') as Record<string, unknown>;
  return (await response.json()) as Record<string, unknown>;
}

describe('hosts authenticate, and the policy stands between them and the upstreams', () => {
  it('answers a request without a token 401 with the challenge, on /mcp, /sse and /messages alike', async () => {
    const edge = await setup();
    try {
      for (const req of [mcpPost(initializeBody(0)), new Request(`${BASE}/sse`, { headers: { accept: 'text/event-stream' } }), mcpPost({}, {})]) {
        const response = await edge.handle(req);
        assert.equal(response.status, 401);
        assert.equal(response.headers.get('www-authenticate'), CHALLENGE);
      }
      const messages = await edge.handle(new Request(`${BASE}/messages?sessionId=x`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }));
      assert.equal(messages.status, 401);
      const bad = await edge.handle(mcpPost(initializeBody(0), { authorization: 'Bearer mallory' }));
      assert.equal(bad.status, 401);
      assert.match(bad.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
      assert.equal(await edge.refusals('unauthenticated'), 4);
      assert.equal(await edge.refusals('invalid-token'), 1);
    } finally {
      await edge.close();
    }
  });

  it('serves the Protected Resource Metadata at both well-known paths, to any origin', async () => {
    const edge = await setup();
    try {
      for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
        const response = await edge.handle(new Request(`${BASE}${path}`, { headers: { origin: 'https://app.example' } }));
        assert.equal(response.status, 200, path);
        assert.equal(response.headers.get('access-control-allow-origin'), '*');
        assert.deepEqual(await response.json(), { resource: `${BASE}/mcp`, authorization_servers: [ISSUER] });
      }
    } finally {
      await edge.close();
    }
  });

  it('hides a denied tool from a legacy host and refuses its call with GW_ERR_FORBIDDEN before the upstream sees it', async () => {
    const edge = await setup();
    try {
      const bob = await openSession(edge, 'bob');
      const listed = (await rpc(edge, bob, 1, 'tools/list')).result as { tools: { name: string }[] };
      assert.deepEqual(listed.tools.map((tool) => tool.name).sort(), ['ask_first', 'status']);
      const refused = (await rpc(edge, bob, 2, 'tools/call', { name: 'restart_service', arguments: {} })).error as { code: number; data: { reason: string } };
      assert.equal(refused.code, -32603);
      assert.equal(refused.data.reason, 'GW_ERR_FORBIDDEN');
      assert.deepEqual(edge.calls, [], 'nothing reached the upstream');
      assert.equal(await edge.refusals('policy'), 1);
      const ada = await openSession(edge, 'ada');
      const allowed = (await rpc(edge, ada, 3, 'tools/list')).result as { tools: { name: string }[] };
      assert.deepEqual(allowed.tools.map((tool) => tool.name).sort(), ['ask_first', 'restart_service', 'status']);
      assert.ok((await rpc(edge, ada, 4, 'tools/call', { name: 'restart_service', arguments: {} })).result);
      assert.deepEqual(edge.calls, ['restart_service']);
    } finally {
      await edge.close();
    }
  });

  it('refuses another principal\'s session as unknown (404), counts it, and the owner goes on', async () => {
    const edge = await setup();
    try {
      const ada = await openSession(edge, 'ada');
      const stolen = await edge.handle(mcpPost({ jsonrpc: '2.0', id: 9, method: 'tools/list' }, { ...ada, authorization: 'Bearer bob' }));
      assert.equal(stolen.status, 404);
      assert.equal(await edge.refusals('foreign-session'), 1);
      assert.ok((await rpc(edge, ada, 10, 'tools/list')).result);
    } finally {
      await edge.close();
    }
  });

  it('applies the same policy to a 2026-07-28 host of the same principal', async () => {
    const edge = await setup();
    try {
      assert.equal((await modern(edge, undefined, 1, 'tools/list')).status, 401);
      const listed = (await modernBody(await modern(edge, 'bob', 2, 'tools/list'))).result as { tools: { name: string }[] };
      assert.deepEqual(listed.tools.map((tool) => tool.name).sort(), ['ask_first', 'status']);
      const refused = (await modernBody(await modern(edge, 'bob', 3, 'tools/call', { name: 'restart_service', arguments: {} }))).error as { code: number; data: { reason: string } };
      assert.equal(refused.code, -32603);
      assert.equal(refused.data.reason, 'GW_ERR_FORBIDDEN');
      assert.deepEqual(edge.calls, []);
      const done = (await modernBody(await modern(edge, 'ada', 4, 'tools/call', { name: 'restart_service', arguments: {} }))).result;
      assert.ok(done);
      assert.deepEqual(edge.calls, ['restart_service']);
    } finally {
      await edge.close();
    }
  });

  it('shows an operator who asked: the host principal, its client name, the tool and its arguments with secrets redacted', async () => {
    const edge = await setup();
    try {
      const ada = await openSession(edge, 'ada');
      const call = edge.handle(mcpPost({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'ask_first', arguments: { service: 'payments-api', apiToken: 's3cret' } } }, ada));
      const question = await openQuestion(edge.desk);
      assert.equal(question.origin.principal, 'Ada <ada> (https://id.example)');
      assert.equal(question.origin.clientName, 'test-host');
      assert.equal(question.origin.tool, 'ask_first');
      assert.deepEqual(question.origin.arguments, { service: 'payments-api', apiToken: '[redacted]' });
      await edge.desk.settle(question.id, { kind: 'operator-answer', operator: { kind: 'operator', name: 'test' }, answer: { action: 'decline' } });
      await (await call).text();
    } finally {
      await edge.close();
    }
  });

  it('refuses a host\'s answer to a question of another principal\'s session, audits it, and leaves the question open', async () => {
    const log = captureLog();
    const edge = await setup(log.logger);
    try {
      const ada = await openSession(edge, 'ada');
      const bob = await openSession(edge, 'bob');
      const call = edge.handle(mcpPost({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'ask_first', arguments: {} } }, ada));
      const question = await openQuestion(edge.desk);
      const hostKey = question.id;
      const stranger = await edge.handle(mcpPost({ jsonrpc: '2.0', id: hostKey, result: { action: 'accept', content: { go: true } } }, bob));
      assert.equal(stranger.status, 400);
      assert.equal((await edge.desk.get(question.id))?.question.state, 'delivered', 'the question is untouched');
      const audited = log.entries.find((entry) => entry.fields?.audit === 'unknown-answer');
      assert.equal(audited?.fields?.principal, 'bob (https://id.example)');
      await edge.desk.settle(question.id, { kind: 'operator-answer', operator: { kind: 'operator', name: 'test' }, answer: { action: 'decline' } });
      await (await call).text();
    } finally {
      await edge.close();
    }
  });
});
