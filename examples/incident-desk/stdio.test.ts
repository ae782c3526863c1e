/** @module incident-desk/stdio.test: the real `incident-desk` process over stdio, driven by an SDK Client. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import type { CallToolResult, ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';

import { VECTOR_ANSWER_RESULT, VECTOR_ELICIT_PARAMS, VECTOR_FINAL_RESULT } from './testing/restart-vector.js';
import { connectStdioHost, type StdioHost } from './testing/stdio-client.js';

const FULL_CAPABILITIES = { elicitation: { form: {} }, sampling: {} };

function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

describe('incident-desk over stdio, host with elicitation and sampling', () => {
  let host: StdioHost;
  const elicitations: ElicitRequest[] = [];
  let nextAnswer: ElicitResult = { action: 'cancel' };
  const samplingPrompts: string[] = [];

  before(async () => {
    host = await connectStdioHost(FULL_CAPABILITIES, {
      elicit: (request) => {
        elicitations.push(request);
        return nextAnswer;
      },
      sample: (request) => {
        const first = request.params.messages[0]?.content;
        samplingPrompts.push(first && !Array.isArray(first) && first.type === 'text' ? first.text : '');
        return { role: 'assistant', model: 'test-model-7', content: { type: 'text', text: 'Pool exhaustion on ledger-db; payments degraded.' } };
      },
    });
  });
  after(async () => {
    await host.close();
    assert.deepEqual(host.transportErrors, [], 'stdout carried only protocol messages');
  });

  test('negotiates the latest revision the host asks for and names itself', () => {
    assert.equal(host.client.getNegotiatedProtocolVersion(), '2025-11-25');
    assert.equal(host.client.getServerVersion()?.name, 'incident-desk');
  });

  test('lists the roster and every incident and service status from the template list callbacks', async () => {
    const { resources } = await host.client.listResources();
    const uris = resources.map((resource) => resource.uri);
    assert.ok(uris.includes('incident://oncall/roster'));
    assert.ok(uris.includes('incident://incidents/INC-1042'));
    assert.ok(uris.includes('incident://services/payments-api/status'));
  });

  test('reads the on-call roster as JSON', async () => {
    const { contents } = await host.client.readResource({ uri: 'incident://oncall/roster' });
    const roster = JSON.parse(String(contents[0] && 'text' in contents[0] ? contents[0].text : '')) as { shifts: { team: string; primary: string }[] };
    assert.equal(roster.shifts.find((shift) => shift.team === 'payments')?.primary, 'Ada Okafor');
  });

  test('lists both resource templates', async () => {
    const { resourceTemplates } = await host.client.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((template) => template.uriTemplate).sort(), [
      'incident://incidents/{id}',
      'incident://services/{name}/status',
    ]);
  });

  test('reads an incident and a service status through the templates', async () => {
    const incident = await host.client.readResource({ uri: 'incident://incidents/INC-1044' });
    assert.match(JSON.stringify(incident.contents), /Login latency spikes in eu-west/);
    const status = await host.client.readResource({ uri: 'incident://services/payments-api/status' });
    assert.match(JSON.stringify(status.contents), /\\"state\\": \\"degraded\\"/);
  });

  test('an unknown incident is a JSON-RPC error, not empty contents', async () => {
    await assert.rejects(host.client.readResource({ uri: 'incident://incidents/INC-0000' }), /INC-0000/);
  });

  test('completes template variables and the prompt argument', async () => {
    const ids = await host.client.complete({ ref: { type: 'ref/resource', uri: 'incident://incidents/{id}' }, argument: { name: 'id', value: 'inc-104' } });
    assert.deepEqual(ids.completion.values, ['INC-1042', 'INC-1043', 'INC-1044']);
    const names = await host.client.complete({ ref: { type: 'ref/resource', uri: 'incident://services/{name}/status' }, argument: { name: 'name', value: 'pay' } });
    assert.deepEqual(names.completion.values, ['payments-api']);
    const promptIds = await host.client.complete({ ref: { type: 'ref/prompt', name: 'triage_incident' }, argument: { name: 'id', value: 'INC-1043' } });
    assert.deepEqual(promptIds.completion.values, ['INC-1043']);
  });

  test('the triage_incident prompt builds a triage message from the incident and its service', async () => {
    const prompt = await host.client.getPrompt({ name: 'triage_incident', arguments: { id: 'INC-1042' } });
    assert.equal(prompt.messages.length, 1);
    const content = prompt.messages[0]?.content;
    assert.ok(content && content.type === 'text');
    assert.match(content.text, /^Triage incident INC-1042 \(SEV1, open\)/);
    assert.match(content.text, /payments-api is degraded/);
  });

  test('restart accepted with a ticket: the exact question and the exact result of the vector', async () => {
    elicitations.length = 0;
    nextAnswer = VECTOR_ANSWER_RESULT as ElicitResult;
    const result = await host.client.callTool({ name: 'restart_service', arguments: { service: 'payments-api' } });
    assert.deepEqual(result, VECTOR_FINAL_RESULT);
    assert.equal(elicitations.length, 1);
    assert.deepEqual(elicitations[0]?.params, VECTOR_ELICIT_PARAMS);
  });

  for (const [answer, reason] of [
    [{ action: 'decline' }, 'approval declined'],
    [{ action: 'cancel' }, 'approval cancelled'],
    [{ action: 'accept', content: { confirm: false, ticket: 'CHG-2291' } }, 'restart not confirmed'],
    [{ action: 'accept', content: { ticket: 'CHG-2291' } }, 'restart not confirmed'],
  ] as const) {
    test(`restart answered ${JSON.stringify(answer)}: nothing restarted, not an error`, async () => {
      nextAnswer = answer as ElicitResult;
      const result = await host.client.callTool({ name: 'restart_service', arguments: { service: 'payments-api' } });
      assert.deepEqual(result, { content: [{ type: 'text', text: `NOT RESTARTED payments-api: ${reason}` }], isError: false });
    });
  }

  test('restarting an unknown service is an isError result and asks nobody', async () => {
    elicitations.length = 0;
    const result = await host.client.callTool({ name: 'restart_service', arguments: { service: 'nope' } });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /unknown service "nope"/);
    assert.equal(elicitations.length, 0);
  });

  test("summarize_incident asks the host's model and returns its text", async () => {
    samplingPrompts.length = 0;
    const result = await host.client.callTool({ name: 'summarize_incident', arguments: { id: 'INC-1042' } });
    assert.equal(result.isError, false);
    assert.equal(textOf(result), 'Summary of INC-1042 (by test-model-7):\nPool exhaustion on ledger-db; payments degraded.');
    assert.equal(samplingPrompts.length, 1);
    assert.match(samplingPrompts[0] ?? '', /Summarise incident INC-1042/);
  });
});

describe('incident-desk over stdio, host with no capabilities', () => {
  let host: StdioHost;
  before(async () => {
    host = await connectStdioHost({});
  });
  after(() => host.close());

  test('summarize_incident degrades to a plain summary (not an error)', async () => {
    const result = await host.client.callTool({ name: 'summarize_incident', arguments: { id: 'INC-1043' } });
    assert.equal(result.isError, false);
    assert.match(textOf(result), /^INC-1043 \(SEV3, mitigated\) on search-indexer: Search results stale/);
    assert.match(textOf(result), /plain summary/);
  });

  test('restart_service asks anyway and turns the refusal into an isError result', async () => {
    const result = await host.client.callTool({ name: 'restart_service', arguments: { service: 'payments-api' } });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /^restart_service: the host refused elicitation\/create/);
  });
});

describe('incident-desk over stdio with --request-timeout 200', () => {
  let host: StdioHost;
  before(async () => {
    host = await connectStdioHost(
      FULL_CAPABILITIES,
      {
        elicit: async () => {
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          return { action: 'accept', content: { confirm: true, ticket: 'CHG-1' } };
        },
        sample: async () => {
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          return { role: 'assistant', model: 'slow', content: { type: 'text', text: 'too late' } };
        },
      },
      ['--request-timeout', '200'],
    );
  });
  after(() => host.close());

  test('a host slower than the timeout gets an isError result naming the timeout (elicitation)', async () => {
    const started = Date.now();
    const result = await host.client.callTool({ name: 'restart_service', arguments: { service: 'payments-api' } });
    assert.deepEqual(result, { content: [{ type: 'text', text: 'restart_service: no answer from the host within 200 ms' }], isError: true });
    assert.ok(Date.now() - started < 1_000, 'the server gave up before the host answered');
  });

  test('a host slower than the timeout gets an isError result naming the timeout (sampling)', async () => {
    const result = await host.client.callTool({ name: 'summarize_incident', arguments: { id: 'INC-1042' } });
    assert.deepEqual(result, { content: [{ type: 'text', text: 'summarize_incident: no answer from the host within 200 ms' }], isError: true });
  });
});
