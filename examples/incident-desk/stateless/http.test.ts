/** @module incident-desk/stateless/http.test: the real `incident-desk --stateless --http` process, driven with raw 2026-07-28 JSON-RPC over fetch. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { envelope, modernHeaders, modernRequest, postModern, type WireObject, type WireReply } from '../testing/modern-wire.js';
import { type HttpProcess, spawnHttpIncidentDesk } from '../testing/spawn-http.js';
import { createDeskStateCodec } from './request-state.js';
import { STATE_KEY_ENV } from './state-key.js';

const KEY = 'stateless-http-test-key-0123456789abcdef';
const FORM = { elicitation: { form: {} } };
const SAMPLING = { sampling: {} };
const SERVER_META = { 'io.modelcontextprotocol/serverInfo': { name: 'incident-desk', version: '0.1.0' } };

function textOf(reply: WireReply): string {
  const content = (reply.result?.content ?? []) as { type: string; text?: string }[];
  return content.map((block) => block.text ?? '').join('');
}

describe('incident-desk --stateless over Streamable HTTP', () => {
  let desk: HttpProcess;
  let nextId = 100;
  const call = (name: string, args: WireObject, capabilities: WireObject, retry: WireObject = {}): WireObject =>
    modernRequest(nextId++, 'tools/call', { name, arguments: args, ...retry }, capabilities);

  before(async () => {
    desk = await spawnHttpIncidentDesk(['--stateless'], { [STATE_KEY_ENV]: KEY });
  });
  after(async () => {
    await desk.stop();
    assert.equal(desk.stdout(), '', 'nothing on stdout in HTTP mode');
  });

  /** The first round of a restart: the input_required result and its requestState. */
  async function askRestart(service: string): Promise<{ reply: WireReply; requestState: string }> {
    const { status, reply } = await postModern(desk.url, call('restart_service', { service }, FORM));
    assert.equal(status, 200);
    const requestState = reply.result?.requestState;
    assert.equal(typeof requestState, 'string');
    return { reply, requestState: requestState as string };
  }

  test('server/discover names 2026-07-28 only, the capabilities, the server and cache hints', async () => {
    const { status, contentType, reply } = await postModern(desk.url, modernRequest(1, 'server/discover'));
    assert.equal(status, 200);
    assert.match(contentType ?? '', /^application\/json/);
    assert.deepEqual(reply.result, {
      supportedVersions: ['2026-07-28'],
      capabilities: { resources: { listChanged: true }, completions: {}, prompts: { listChanged: true }, tools: { listChanged: true } },
      instructions: 'Incident desk: read incidents and service status, triage, summarise, and restart services with approval.',
      resultType: 'complete',
      ttlMs: 60_000,
      cacheScope: 'public',
      _meta: SERVER_META,
    });
  });

  test('tools/list carries both tools, even for a request that declares no capability, with cache hints', async () => {
    const { reply } = await postModern(desk.url, modernRequest(2, 'tools/list'));
    const tools = reply.result?.tools as { name: string }[];
    assert.deepEqual(tools.map((tool) => tool.name), ['summarize_incident', 'restart_service']);
    assert.equal(reply.result?.resultType, 'complete');
    assert.equal(reply.result?.ttlMs, 60_000);
    assert.equal(reply.result?.cacheScope, 'public');
  });

  test('resources/read of live data is complete and not cacheable; an unknown incident is -32602', async () => {
    const { reply } = await postModern(desk.url, modernRequest(3, 'resources/read', { uri: 'incident://services/payments-api/status' }));
    assert.equal(reply.result?.resultType, 'complete');
    assert.equal(reply.result?.ttlMs, 0);
    assert.match(JSON.stringify(reply.result?.contents), /payments-api/);
    const missing = await postModern(desk.url, modernRequest(4, 'resources/read', { uri: 'incident://incidents/INC-0000' }));
    assert.equal(missing.reply.error?.code, -32602);
  });

  test('restart accepted: input_required with the approval question, then the retry restarts', async () => {
    const { reply, requestState } = await askRestart('payments-api');
    assert.equal(reply.result?.resultType, 'input_required');
    assert.deepEqual(Object.keys(reply.result?.inputRequests as WireObject), ['approval']);
    const retry = await postModern(
      desk.url,
      call('restart_service', { service: 'payments-api' }, FORM, {
        inputResponses: { approval: { action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } } },
        requestState,
      }),
    );
    assert.deepEqual(retry.reply.result, {
      content: [{ type: 'text', text: 'RESTARTED payments-api under CHG-2291' }],
      isError: false,
      resultType: 'complete',
      _meta: SERVER_META,
    });
  });

  for (const [action, reason] of [
    ['decline', 'approval declined'],
    ['cancel', 'approval cancelled'],
  ] as const) {
    test(`restart answered ${action}: nothing restarted, not an error`, async () => {
      const { requestState } = await askRestart('search-indexer');
      const retry = await postModern(desk.url, call('restart_service', { service: 'search-indexer' }, FORM, { inputResponses: { approval: { action } }, requestState }));
      assert.equal(retry.reply.result?.isError, false);
      assert.equal(textOf(retry.reply), `NOT RESTARTED search-indexer: ${reason}`);
    });
  }

  test('an answer sent without the requestState that asked for it restarts nothing: the question is asked again', async () => {
    const { reply } = await postModern(
      desk.url,
      call('restart_service', { service: 'payments-api' }, FORM, { inputResponses: { approval: { action: 'accept', content: { confirm: true, ticket: 'CHG-1' } } } }),
    );
    assert.equal(reply.result?.resultType, 'input_required');
    assert.equal(typeof reply.result?.requestState, 'string');
  });

  test('a tampered requestState is refused with -32602 before the tool runs, and the reason is logged', async () => {
    const { requestState } = await askRestart('payments-api');
    const at = 'v1.'.length + 10;
    const tampered = requestState.slice(0, at) + (requestState[at] === 'A' ? 'B' : 'A') + requestState.slice(at + 1);
    const { reply } = await postModern(
      desk.url,
      call('restart_service', { service: 'payments-api' }, FORM, {
        inputResponses: { approval: { action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } } },
        requestState: tampered,
      }),
    );
    assert.deepEqual(reply.error, { code: -32602, message: 'Invalid or expired requestState', data: { reason: 'invalid_request_state' } });
    assert.equal(reply.result, undefined, 'nothing restarted');
    assert.match(desk.stderr(), /requestState verification rejected tools\/call: its signature does not match/);
  });

  test('an expired requestState (signed with the desk key) is refused with -32602, and logged as expired', async () => {
    const stale = await createDeskStateCodec({ key: KEY, ttlSeconds: -60 }).mint({ tool: 'restart_service', subject: 'payments-api' });
    const { reply } = await postModern(
      desk.url,
      call('restart_service', { service: 'payments-api' }, FORM, {
        inputResponses: { approval: { action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } } },
        requestState: stale,
      }),
    );
    assert.equal(reply.error?.code, -32602);
    assert.equal(reply.error?.message, 'Invalid or expired requestState');
    assert.match(desk.stderr(), /requestState verification rejected tools\/call: expired/);
  });

  test("a genuine requestState of another service's approval restarts nothing", async () => {
    const { requestState } = await askRestart('auth-gateway');
    const { reply } = await postModern(
      desk.url,
      call('restart_service', { service: 'payments-api' }, FORM, {
        inputResponses: { approval: { action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } } },
        requestState,
      }),
    );
    assert.equal(reply.result?.isError, true);
    assert.match(textOf(reply), /^restart_service: the requestState was issued for restart_service of "auth-gateway", not for restarting "payments-api": nothing restarted$/);
  });

  test('a request that declares no elicitation gets an isError result naming the missing capability, and no question', async () => {
    for (const capabilities of [{}, { elicitation: { url: {} } }]) {
      const { reply } = await postModern(desk.url, call('restart_service', { service: 'payments-api' }, capabilities));
      assert.deepEqual(reply.result?.content, [
        { type: 'text', text: "restart_service: the host cannot answer elicitation/create (the request's client capabilities declare no form elicitation)" },
      ]);
      assert.equal(reply.result?.isError, true);
      assert.equal(reply.result?.resultType, 'complete');
    }
  });

  test("summarize_incident: one sampling/createMessage input request, then the summary from the host's reply", async () => {
    const first = await postModern(desk.url, call('summarize_incident', { id: 'INC-1042' }, SAMPLING));
    assert.equal(first.reply.result?.resultType, 'input_required');
    const inputRequests = first.reply.result?.inputRequests as Record<string, { method: string; params: { messages: { content: { text: string } }[]; maxTokens: number } }>;
    assert.deepEqual(Object.keys(inputRequests), ['summary']);
    assert.equal(inputRequests.summary?.method, 'sampling/createMessage');
    assert.equal(inputRequests.summary?.params.maxTokens, 300);
    assert.match(inputRequests.summary?.params.messages[0]?.content.text ?? '', /^Summarise incident INC-1042 for a status update\./);
    const retry = await postModern(
      desk.url,
      call('summarize_incident', { id: 'INC-1042' }, SAMPLING, {
        inputResponses: { summary: { role: 'assistant', model: 'test-model-7', content: { type: 'text', text: 'Pool exhaustion on ledger-db; payments degraded.' } } },
        requestState: first.reply.result?.requestState,
      }),
    );
    assert.equal(retry.reply.result?.isError, false);
    assert.equal(textOf(retry.reply), 'Summary of INC-1042 (by test-model-7):\nPool exhaustion on ledger-db; payments degraded.');
  });

  test('summarize_incident without sampling degrades to the plain summary in one round', async () => {
    const { reply } = await postModern(desk.url, call('summarize_incident', { id: 'INC-1043' }, FORM));
    assert.equal(reply.result?.resultType, 'complete');
    assert.equal(reply.result?.isError, false);
    assert.match(textOf(reply), /^INC-1043 \(SEV3, mitigated\) on search-indexer: .*\[plain summary: the host offers no sampling\]$/);
  });

  test('a legacy initialize is refused with -32022 naming the supported revision (HTTP 400)', async () => {
    const response = await fetch(desk.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } } }),
    });
    assert.equal(response.status, 400);
    assert.equal(response.headers.get('mcp-session-id'), null, 'no session is ever minted');
    assert.deepEqual(await response.json(), {
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32022, message: 'Unsupported protocol version: 2025-11-25', data: { supported: ['2026-07-28'], requested: '2025-11-25' } },
    });
  });

  test('GET and DELETE are 405 (POST only)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(desk.url, { method, headers: { accept: 'text/event-stream', 'mcp-session-id': 'whatever' } });
      assert.equal(response.status, 405, method);
      assert.equal(response.headers.get('allow'), 'POST');
      await response.body?.cancel();
    }
  });

  test('an Mcp-Name header that disagrees with the body is -32020 (HTTP 400)', async () => {
    const message = call('restart_service', { service: 'payments-api' }, FORM);
    const { status, reply } = await postModern(desk.url, message, { ...modernHeaders(message), 'mcp-name': 'summarize_incident' });
    assert.equal(status, 400);
    assert.equal(reply.error?.code, -32020);
  });

  test('a request without the envelope is refused (-32022: it names no revision)', async () => {
    const { status, reply } = await postModern(desk.url, { jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }, {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    });
    assert.equal(status, 400);
    assert.equal(reply.error?.code, -32022);
  });

  test('a request naming a future revision is -32022 with the supported list', async () => {
    const message = { jsonrpc: '2.0', id: 10, method: 'tools/list', params: { _meta: { ...envelope(), 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } };
    const { status, reply } = await postModern(desk.url, message);
    assert.equal(status, 400);
    assert.deepEqual(reply.error?.data, { supported: ['2026-07-28'], requested: '2099-01-01' });
  });
});
