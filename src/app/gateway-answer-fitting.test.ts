/** @module Tests of host answers fitted to an older upstream through the gateway core: the form defaults a 2025-06-18 host never saw, and array sampling content. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { JsonObject, JsonRpcRequest } from '../protocol/jsonrpc.js';
import { createGateway } from './gateway.js';
import { silentLogger } from '../core/log.js';
import type { ToolHandler } from '../upstream/testing/fake-upstream.js';
import { fakeUpstreamFactory } from '../upstream/testing/fake-upstream.js';
import { config, connectHost, spec } from './testing/gateway-doubles.js';

// ---- form answers: the defaults a 2025-06-18 host never saw ----

test("a 2025-06-18 host's accepted answer gets the upstream's hidden defaults; a 2025-11-25 host's goes through untouched", async () => {
  const schema = {
    type: 'object',
    properties: { ticket: { type: 'string' }, priority: { type: 'string', oneOf: [{ const: 'p1', title: 'Urgent' }, { const: 'p3', title: 'Normal' }], default: 'p3' }, retries: { type: 'integer', default: 2 }, notify: { type: 'boolean', default: true } },
    required: ['ticket'],
  };
  const up = fakeUpstreamFactory({
    file: async (_call, server) => {
      const answer = await server.ask('elicitation/create', { message: 'File it?', requestedSchema: schema });
      return { content: [{ type: 'text', text: JSON.stringify('result' in answer ? answer.result : answer) }] };
    },
  });
  const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => up.open() });
  await gateway.ready;
  const cases: [string, JsonObject, string][] = [
    ['2025-06-18', { action: 'accept', content: { ticket: 'T-1', retries: 5 } }, '{"action":"accept","content":{"ticket":"T-1","retries":5,"priority":"p3"}}'],
    ['2025-06-18', { action: 'decline' }, '{"action":"decline"}'],
    ['2025-11-25', { content: { ticket: 'T-1' }, action: 'accept' }, '{"content":{"ticket":"T-1"},"action":"accept"}'],
  ];
  for (const [revision, answer, upstreamGets] of cases) {
    const host = await connectHost(gateway, { elicitation: {} }, revision);
    const call = host.request('tools/call', { name: 'file', arguments: {} });
    const question = await host.question('elicitation/create');
    host.session.receive({ jsonrpc: '2.0', id: (question.message as JsonRpcRequest).id, result: answer });
    const done = await call;
    assert.ok('result' in done);
    assert.equal((done.result.content as { text: string }[])[0]?.text, upstreamGets, `${revision} ${JSON.stringify(answer)}`);
  }
  await gateway.close();
});

// ---- sampling: a 2025-11-25 host's array content, for an older upstream ----

test('a sampling result with one text block in an array reaches a 2025-06-18 upstream as that block; what it cannot hold is a clear error', async () => {
  const sample: ToolHandler = async (_call, server) => {
    const answer = await server.ask('sampling/createMessage', { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 10 });
    return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
  };
  const text = { type: 'text', text: 'Hello' };
  const toolUse = { type: 'tool_use', id: 'tu1', name: 'lookup', input: {} };
  const cases: [upstreamRevision: string, content: unknown, expect: JsonObject][] = [
    ['2025-06-18', [text], { result: { role: 'assistant', model: 'm', content: text } }],
    ['2025-03-26', [text], { result: { role: 'assistant', model: 'm', content: text } }],
    ['2025-11-25', [text], { result: { role: 'assistant', model: 'm', content: [text] } }],
    ['2025-06-18', [text, text], { code: -32603, message: /^The host's sampling result cannot be relayed: 2 content blocks in one message, which 2025-06-18 peers cannot hold/ } as never],
    ['2025-06-18', [toolUse], { code: -32603, message: /^The host's sampling result cannot be relayed: a tool_use content block, which 2025-06-18 peers cannot hold/ } as never],
    ['2024-11-05', [{ type: 'audio', data: 'AA', mimeType: 'audio/wav' }], { code: -32603, message: /a audio content block, which 2024-11-05 peers cannot hold/ } as never],
  ];
  for (const [upstreamRevision, content, expected] of cases) {
    const up = fakeUpstreamFactory({ sample }, { protocolVersion: upstreamRevision });
    const gateway = createGateway(config([spec('llm')]), { logger: silentLogger, openTransport: () => up.open() });
    await gateway.ready;
    const host = await connectHost(gateway, { sampling: {} });
    const call = host.request('tools/call', { name: 'sample', arguments: {} });
    const question = await host.question('sampling/createMessage');
    host.session.receive({ jsonrpc: '2.0', id: (question.message as JsonRpcRequest).id, result: { role: 'assistant', model: 'm', content } });
    const done = await call;
    assert.ok('result' in done);
    const received = JSON.parse((done.result.content as { text: string }[])[0]?.text ?? '{}') as { result?: JsonObject; error?: { code: number; message: string } };
    const label = `${upstreamRevision} ${JSON.stringify(content)}`;
    if ('result' in expected) {
      assert.deepEqual(received.result, expected.result, label);
    } else {
      const wanted = expected as unknown as { code: number; message: RegExp };
      assert.equal(received.error?.code, wanted.code, label);
      assert.match(received.error?.message ?? '', wanted.message, label);
    }
    await gateway.close();
  }
});
