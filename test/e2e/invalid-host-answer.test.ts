/**
 * @module e2e/invalid-host-answer.test: an SDK host whose answer breaks the schema it was sent (issue 11, items 8
 * and 13). Over Streamable HTTP its POST gets 400, over stdio it gets an error line with the answer's id; either
 * way -32602 names the field, the question settles at once, and the upstream (the incident desk) hears -32602
 * naming it, so the call ends long before the question would expire. A 2026-07-28 host's retry with such an answer
 * settles the question the same way (its handle is used up).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import type { CallToolResult, ElicitResult } from '@modelcontextprotocol/client';

import { deadline } from './harness/bounded.js';
import { type RunningGateway, startGateway, writeConfigFile } from './harness/gateway.js';
import { type HttpExchange, ModernHttpHost } from './harness/modern-host.js';
import { connectSdkHttp, connectSdkStdio, type SdkHost } from './harness/sdk-host.js';
import { incidentDeskStdio } from './harness/upstreams.js';

/** Far beyond the few seconds the call takes once the question settles, far below the question's own expiry. */
const CALL_DEADLINE_MS = 60_000;
const QUESTIONS = { route: 'host', timeout: '30m' } as const;

/** `confirm` is a boolean in the desk's approval form: a string breaks the schema. */
const INVALID_ANSWER: ElicitResult = { action: 'accept', content: { confirm: 'yes', ticket: 'CHG-2291' } };

async function restartWithInvalidAnswer(host: SdkHost): Promise<CallToolResult> {
  const call = host.client.callTool({ name: 'restart_service', arguments: { service: 'payments-api' } }) as Promise<CallToolResult>;
  return deadline(call, CALL_DEADLINE_MS, 'restart_service after an invalid answer');
}

/** The desk's error result: it heard -32602 naming the field for its elicitation/create. */
function assertUpstreamHeardInvalidParams(result: CallToolResult): void {
  assert.equal(result.isError, true, JSON.stringify(result));
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  assert.match(text, /the host refused elicitation\/create \(-32602: /, text);
  assert.match(text, /"confirm"/, text);
}

describe('an invalid host answer over Streamable HTTP (SDK host)', () => {
  let gateway: RunningGateway | undefined;
  before(async () => {
    gateway = await startGateway({ upstreams: { desk: incidentDeskStdio() }, questions: QUESTIONS });
  });
  after(() => gateway?.stop());

  test('the POST gets 400 -32602 naming the field; the upstream gets -32602 and the call ends', async (t) => {
    assert.ok(gateway);
    const http: HttpExchange[] = [];
    let asked = 0;
    const host = await connectSdkHttp(gateway.url, { elicitation: { form: {} } }, {
      elicit: () => {
        asked += 1;
        return INVALID_ANSWER;
      },
    }, { recordHttp: http });
    t.after(() => host.close());

    const result = await restartWithInvalidAnswer(host);
    assertUpstreamHeardInvalidParams(result);
    assert.equal(asked, 1, 'asked once');
    const answerPost = http.find((entry) => entry.request.method === 'POST' && /"result"/.test(entry.request.body) && !/"method"/.test(entry.request.body));
    assert.ok(answerPost, `the host posted its answer; gateway logs:\n${gateway.logs()}`);
    assert.equal(answerPost.status, 400, answerPost.body);
    const error = (JSON.parse(answerPost.body) as { error?: { code?: number; message?: string } }).error;
    assert.equal(error?.code, -32602, answerPost.body);
    assert.match(error?.message ?? '', /"confirm"/, answerPost.body);
  });

  test('a 2026-07-28 host: the retry with the invalid answer gets 400 -32602 naming inputResponses.<key>, and the question is settled (its handle used up)', async () => {
    assert.ok(gateway);
    const host = new ModernHttpHost(gateway.url);
    const args = { service: 'payments-api' };
    const first = await host.callTool('restart_service', args);
    const result = first.response.result;
    assert.equal(result?.resultType, 'input_required', host.transcript());
    const [key] = Object.keys(result?.inputRequests as Record<string, unknown>);
    assert.ok(key, host.transcript());
    const requestState = result?.requestState as string;

    const refused = await host.callTool('restart_service', args, { inputResponses: { [key]: INVALID_ANSWER }, requestState });
    assert.equal(refused.exchange.status, 400, host.transcript());
    assert.equal(refused.response.error?.code, -32602, host.transcript());
    assert.deepEqual(refused.response.error?.data, { field: `inputResponses.${key}` }, host.transcript());
    assert.match(refused.response.error?.message ?? '', /"confirm"/, host.transcript());

    const late = await host.callTool('restart_service', args, { inputResponses: { [key]: { action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } } }, requestState });
    assert.equal(late.response.error?.code, -32602, host.transcript());
    assert.deepEqual(late.response.error?.data, { reason: 'GW_ERR_REQUEST_STATE_REJECTED', failure: 'replayed' }, host.transcript());
  });
});

test('an invalid host answer over stdio (SDK host): an error line with the answer\'s id, -32602 naming the field; the upstream gets -32602 and the call ends', async (t) => {
  const config = await writeConfigFile({ upstreams: { desk: incidentDeskStdio() }, questions: QUESTIONS });
  t.after(() => config.remove());
  const questionIds: unknown[] = [];
  const host = await connectSdkStdio(config.path, { elicitation: { form: {} } }, {
    elicit: () => INVALID_ANSWER,
  });
  t.after(() => host.close());

  const result = await restartWithInvalidAnswer(host);
  assertUpstreamHeardInvalidParams(result);
  for (const entry of host.wire) {
    if (entry.direction === 'gateway->host' && entry.message.method === 'elicitation/create') questionIds.push(entry.message.id);
  }
  assert.equal(questionIds.length, 1, `one question; gateway stderr:\n${host.stderr()}`);
  const refusal = host.wire.find((entry) => entry.direction === 'gateway->host' && entry.message.id === questionIds[0] && entry.message.error !== undefined);
  assert.ok(refusal, `an error line for the answer ${JSON.stringify(questionIds[0])}; gateway stderr:\n${host.stderr()}`);
  const error = refusal.message.error as { code?: number; message?: string };
  assert.equal(error.code, -32602, JSON.stringify(refusal.message));
  assert.match(error.message ?? '', /"confirm"/, JSON.stringify(refusal.message));
});
