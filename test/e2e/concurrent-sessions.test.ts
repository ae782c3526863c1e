/** @module e2e/concurrent-sessions.test: concurrent host sessions get only their own questions, answers cannot cross sessions, and overlapping calls of one session. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { type RunningGateway, startGateway } from './harness/gateway.js';
import { RawHost } from './harness/raw-host.js';
import { awaitQuestions, questionsOn } from './harness/questions.js';
import type { MessageReader, WireMessage } from './harness/sse-reader.js';
import { isRequest, isToolError, toolText } from './harness/tool-results.js';
import { type HttpUpstream, incidentDeskStdio, labStdio, startLabHttp, streamableHttpUpstream } from './harness/upstreams.js';

const CAPABILITIES = { elicitation: { form: {} } };

describe('concurrent host sessions through switchboard serve', () => {
  let gateway: RunningGateway;
  before(async () => {
    gateway = await startGateway({ upstreams: { desk: incidentDeskStdio() } });
  });
  after(() => gateway?.stop());

  test('each stream carries only its own session\'s question; a foreign answer is refused and changes nothing', async (t) => {
    const [a, b] = await Promise.all([
      RawHost.connect(gateway.url, { capabilities: CAPABILITIES }),
      RawHost.connect(gateway.url, { capabilities: CAPABILITIES }),
    ]);
    t.after(() => Promise.all([a.close(), b.close()]).then(() => undefined));
    assert.notEqual(a.sessionId, b.sessionId);

    // The same request id on both sessions: ids are per session, so the gateway must not mix them up.
    const [callA, callB]: [MessageReader, MessageReader] = await Promise.all([
      a.callTool(5, 'restart_service', { service: 'payments-api' }),
      b.callTool(5, 'restart_service', { service: 'auth-gateway' }),
    ]);
    const [questionA, questionB]: [WireMessage, WireMessage] = await Promise.all([callA.expectNext(), callB.expectNext()]);
    assert.equal(questionA.method, 'elicitation/create');
    assert.equal(questionB.method, 'elicitation/create');
    assert.equal(questionA.params?.message, 'Restart payments-api? This drops in-flight requests.');
    assert.equal(questionB.params?.message, 'Restart auth-gateway? This drops in-flight requests.');
    assert.notEqual(questionA.id, questionB.id, 'question ids are unique across sessions');

    // B answers A's question: refused with a JSON-RPC error body, and A's call is left waiting.
    const foreign = await b.answer(questionA.id, { action: 'accept', content: { confirm: true, ticket: 'CHG-FOREIGN' } });
    assert.ok(foreign.status >= 400 && foreign.status < 500, `HTTP ${foreign.status}`);
    assert.equal(foreign.json?.jsonrpc, '2.0');
    assert.equal(typeof foreign.json?.error?.code, 'number', foreign.text);
    assert.equal(callA.ended, false, "A's call must still be open");
    assert.equal(callB.ended, false, "B's call must still be open");

    const answeredA = await a.answer(questionA.id, { action: 'accept', content: { confirm: true, ticket: 'CHG-A' } });
    assert.equal(answeredA.status, 202, answeredA.text);
    const restA = await callA.rest();
    assert.equal(restA.length, 1, JSON.stringify(restA));
    assert.equal(restA[0]?.id, 5);
    assert.equal(isToolError(restA[0]), false);
    assert.equal(toolText(restA[0]), 'RESTARTED payments-api under CHG-A', 'the foreign answer was not applied');

    const answeredB = await b.answer(questionB.id, { action: 'accept', content: { confirm: true, ticket: 'CHG-B' } });
    assert.equal(answeredB.status, 202, answeredB.text);
    const restB = await callB.rest();
    assert.equal(toolText(restB.at(-1)), 'RESTARTED auth-gateway under CHG-B');

    assert.deepEqual(callA.seen.filter(isRequest), [questionA], 'session A saw exactly one question');
    assert.deepEqual(callB.seen.filter(isRequest), [questionB], 'session B saw exactly one question');
  });

  test('an answer to a question the session was already given an answer for is refused', async (t) => {
    const host = await RawHost.connect(gateway.url, { capabilities: CAPABILITIES });
    t.after(() => host.close());
    const call = await host.callTool(1, 'restart_service', { service: 'ledger-db' });
    const question = await call.expectNext();
    assert.equal((await host.answer(question.id, { action: 'decline' })).status, 202);
    assert.equal(toolText((await call.rest()).at(-1)), 'NOT RESTARTED ledger-db: approval declined');
    const again = await host.answer(question.id, { action: 'accept', content: { confirm: true, ticket: 'CHG-LATE' } });
    assert.equal(again.status, 400, again.text);
    assert.equal(typeof again.json?.error?.code, 'number');
  });

  test('two calls of one session that both ask: both questions reach the session and each answer completes its own call', async (t) => {
    const host = await RawHost.connect(gateway.url, { capabilities: CAPABILITIES });
    t.after(() => host.close());
    const streams = await Promise.all([
      host.callTool(1, 'restart_service', { service: 'search-indexer' }),
      host.callTool(2, 'restart_service', { service: 'ledger-db' }),
    ]);
    // Over stdio nothing says which call a question belongs to, so only the session is certain, not the stream.
    const questions = (await awaitQuestions(streams, 2)).map(({ message }) => message);
    const byService = (service: string) => questions.find((question) => question.params?.message === `Restart ${service}? This drops in-flight requests.`);
    const [first, second] = [byService('search-indexer'), byService('ledger-db')];
    assert.ok(first && second, JSON.stringify(questions));
    assert.notEqual(first.id, second.id);

    // Answered in the opposite order, each with its own ticket.
    assert.equal((await host.answer(second.id, { action: 'accept', content: { confirm: true, ticket: 'CHG-2' } })).status, 202);
    assert.equal((await host.answer(first.id, { action: 'accept', content: { confirm: true, ticket: 'CHG-1' } })).status, 202);
    const [restFirst, restSecond] = await Promise.all(streams.map((stream) => stream.rest()));
    assert.equal(toolText(restFirst?.at(-1)), 'RESTARTED search-indexer under CHG-1');
    assert.equal(toolText(restSecond?.at(-1)), 'RESTARTED ledger-db under CHG-2');
    assert.equal(questionsOn(streams).length, 2, 'no question was delivered twice');
  });
});

describe('questions of overlapping calls in one host session (lab upstream, 2 s upstream timeout)', () => {
  let labHttp: HttpUpstream | undefined;
  let gateway: RunningGateway | undefined;
  before(async () => {
    labHttp = await startLabHttp();
    gateway = await startGateway({
      upstreams: { local: labStdio({ timeout: '2s' }), remote: streamableHttpUpstream(labHttp.url, { timeout: '2s' }) },
    });
  });
  after(async () => {
    await gateway?.stop();
    await labHttp?.stop();
  });

  /** Starts `ask` (question after 300 ms) and then a short `count`, so the question comes while both calls are in flight. */
  async function overlap(host: RawHost, prefix: string): Promise<{ ask: MessageReader; other: MessageReader }> {
    const ask = await host.callTool(1, `${prefix}_ask`, { message: 'Which queue?', delayMs: 300 });
    const other = await host.callTool(2, `${prefix}_count`, { n: 10, delayMs: 60 });
    return { ask, other };
  }

  for (const prefix of ['local', 'remote']) {
    test(`${prefix}: the question rides the stream of the call that asked it`, async (t) => {
      assert.ok(gateway);
      const host = await RawHost.connect(gateway.url, { capabilities: CAPABILITIES });
      t.after(() => host.close());
      const { ask, other } = await overlap(host, prefix);
      const [question] = await awaitQuestions([ask, other], 1);
      assert.ok(question);
      assert.equal(question.message.params?.message, 'Which queue?');
      assert.equal(question.stream, 0, 'the question came on the stream of the other call');
      assert.equal((await host.answer(question.message.id, { action: 'accept', content: { answer: 'ops' } })).status, 202);
      assert.equal(toolText((await ask.rest()).at(-1)), 'accept: ops');
      assert.equal(toolText((await other.rest()).at(-1)), 'counted 10');
    });
  }

  test("local: a human's think time does not count against the asking call's upstream timeout", async (t) => {
    assert.ok(gateway);
    const host = await RawHost.connect(gateway.url, { capabilities: CAPABILITIES });
    t.after(() => host.close());
    const { ask, other } = await overlap(host, 'local');
    const [question] = await awaitQuestions([ask, other], 1);
    assert.ok(question);
    // The host takes longer than the 2 s upstream timeout to answer: that is the scenario, not a check.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    assert.equal((await host.answer(question.message.id, { action: 'accept', content: { answer: 'slow' } })).status, 202);
    const final = (await ask.rest()).find((message) => message.id === 1);
    assert.equal(final?.error, undefined, `the asking call failed: ${JSON.stringify(final)}`);
    assert.equal(toolText(final), 'accept: slow');
  });
});
