/** @module e2e/incident-desk-vector.test: the shared restart_service wire vector replayed through the gateway by a raw HTTP host. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import {
  VECTOR_PROTOCOL_VERSION,
  VECTOR_ANSWER_RESULT,
  VECTOR_CALL,
  VECTOR_ELICIT_PARAMS,
  VECTOR_FINAL_RESULT,
} from '../../examples/incident-desk/testing/restart-vector.js';
import { type RunningGateway, startGateway } from './harness/gateway.js';
import { RawHost } from './harness/raw-host.js';
import type { WireMessage } from './harness/sse-reader.js';
import { isRequest, isToolError, toolText } from './harness/tool-results.js';
import { connectSdkHttp } from './harness/sdk-host.js';
import { incidentDeskStdio, startIncidentDeskHttp } from './harness/upstreams.js';

const FORM_ELICITATION = { elicitation: { form: {} } };

describe('the incident desk restart vector through switchboard serve (stdio upstream)', () => {
  let gateway: RunningGateway;
  before(async () => {
    gateway = await startGateway({ upstreams: { desk: incidentDeskStdio() } });
  });
  after(() => gateway?.stop());

  async function connect(t: { after(fn: () => Promise<void>): void }, capabilities: Record<string, unknown>): Promise<RawHost> {
    const host = await RawHost.connect(gateway.url, { protocolVersion: VECTOR_PROTOCOL_VERSION, capabilities });
    t.after(() => host.close());
    return host;
  }

  test('question on the call stream equals the vector, the answer POST gets 202, the final event equals the vector', async (t) => {
    const host = await connect(t, FORM_ELICITATION);
    assert.equal(host.protocolVersion, VECTOR_PROTOCOL_VERSION);

    const call = await host.request(VECTOR_CALL as WireMessage);
    assert.equal(call.status, 200);
    assert.match(call.contentType, /^text\/event-stream/, 'a call that asks the host is answered over SSE');

    const question = await call.expectNext();
    assert.equal(question.method, 'elicitation/create');
    assert.ok(typeof question.id === 'string' || Number.isInteger(question.id), `id ${JSON.stringify(question.id)}`);
    assert.deepEqual(question.params, VECTOR_ELICIT_PARAMS);

    const answered = await host.answer(question.id, VECTOR_ANSWER_RESULT);
    assert.equal(answered.status, 202, answered.text);

    const rest = await call.rest();
    assert.deepEqual(rest, [{ jsonrpc: '2.0', id: VECTOR_CALL.id, result: VECTOR_FINAL_RESULT }], 'the result is the last event');
    assert.ok(call.ended, 'the stream closes after the result');
  });

  test('a declined question gives a non-error "NOT RESTARTED" result', async (t) => {
    const host = await connect(t, FORM_ELICITATION);
    const call = await host.callTool(11, 'restart_service', { service: 'payments-api' });
    const question = await call.expectNext();
    assert.equal(question.method, 'elicitation/create');
    assert.equal((await host.answer(question.id, { action: 'decline' })).status, 202);
    const [final, ...extra] = await call.rest();
    assert.deepEqual(extra, []);
    assert.equal(final?.id, 11);
    assert.equal(isToolError(final), false);
    assert.equal(toolText(final), 'NOT RESTARTED payments-api: approval declined');
  });

  test('a host that declared no capabilities: restart is an isError result as on a direct connection (nothing restarted), summarize degrades to the plain summary', async (t) => {
    const host = await connect(t, {});

    // The desk does not check and asks anyway; the gateway answers what a host without elicitation sends (-32601),
    // not `cancel`, which would claim a person cancelled.
    const restart = await (await host.callTool(21, 'restart_service', { service: 'payments-api' })).rest();
    assert.deepEqual(restart.filter(isRequest), [], 'no question may reach a host that cannot answer it');
    const restartResult = restart.find((message) => message.id === 21);
    assert.equal(isToolError(restartResult), true, JSON.stringify(restartResult));
    assert.match(toolText(restartResult), /^restart_service: the host refused elicitation\/create \(-32601: /);
    assert.match(toolText(restartResult), /did not declare the elicitation capability/);

    // The same host straight to the desk (no gateway): the same kind of result.
    const desk = await startIncidentDeskHttp();
    t.after(() => desk.stop());
    const direct = await connectSdkHttp(desk.url, {});
    t.after(() => direct.close());
    const directResult = (await direct.client.callTool({ name: 'restart_service', arguments: { service: 'payments-api' } })) as { isError?: boolean; content: { type: string; text?: string }[] };
    assert.equal(directResult.isError, true, JSON.stringify(directResult));
    assert.match(directResult.content[0]?.text ?? '', /^restart_service: the host refused elicitation\/create \(-32601: /);

    const summary = await (await host.callTool(22, 'summarize_incident', { id: 'INC-1042' })).rest();
    assert.deepEqual(summary.filter(isRequest), []);
    const summaryResult = summary.find((message) => message.id === 22);
    assert.equal(isToolError(summaryResult), false);
    assert.match(toolText(summaryResult), /^INC-1042 \(SEV1, open\) on payments-api: .*\[plain summary: the host offers no sampling\]$/);
  });
});
