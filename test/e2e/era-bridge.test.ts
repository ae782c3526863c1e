/**
 * @module e2e/era-bridge.test: the four host/upstream era pairs (issue 5), each with an official SDK v2 client as the host
 * over Streamable HTTP through a real `switchboard serve`, and the incident desk (legacy or `--stateless`, spawned over stdio)
 * as the upstream: restart_service approved and declined, summarize_incident sampled by the host's handler. A legacy host is
 * the SDK's plain 2025-11-25 initialize and gets server-to-client requests; a modern host negotiates 2026-07-28 with
 * `server/discover` and gets `input_required`, which the SDK fulfils with the same handlers and retries. Which one happened
 * is asserted on the wire, not assumed. `ERA_PAIRS=1,3` runs only those pairs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import {
  APPROVAL_QUESTION,
  DECLINE,
  deskHttp,
  deskStdio,
  INCIDENT,
  NOT_RESTARTED_DECLINED,
  RESTARTED,
  SAMPLED_SUMMARY,
  selectedPairs,
  SERVICE,
} from './harness/era-pairs.js';
import { assertQuestionPath, callTool, connectPairHostHttp, textOf } from './harness/era-sdk-host.js';
import { type RunningGateway, startGateway } from './harness/gateway.js';

for (const pair of selectedPairs()) {
  describe(`${pair.label}: SDK v2 host over Streamable HTTP, incident desk over stdio`, { timeout: 120_000 }, () => {
    let gateway: RunningGateway;
    before(async () => {
      gateway = await startGateway({ upstreams: { desk: deskStdio(pair.desk) } });
      const { body } = await gateway.health();
      assert.equal(body.upstreams[0]?.state, 'up', JSON.stringify(body));
      assert.equal(body.upstreams[0]?.era, pair.desk === 'legacy' ? 'legacy' : 'modern', JSON.stringify(body));
    });
    after(() => gateway?.stop());

    test('restart_service approved: the handler is asked the desk\'s question, the desk restarts', async (t) => {
      const host = await connectPairHostHttp(t, gateway.url, pair.host, { logs: () => gateway.logs() });
      const result = await callTool(host, 'restart_service', { service: SERVICE });
      assert.equal(textOf(result), RESTARTED, host.transcript());
      assert.equal(result.isError ?? false, false);
      assert.equal(host.elicitations.length, 1, host.transcript());
      const [question] = host.elicitations;
      assert.equal(question?.message, APPROVAL_QUESTION.message);
      assert.deepEqual((question as { requestedSchema?: unknown }).requestedSchema, APPROVAL_QUESTION.requestedSchema);
      assertQuestionPath(host, pair, 'elicitation/create');
    });

    test('restart_service declined: the decline reaches the desk, NOT RESTARTED', async (t) => {
      const host = await connectPairHostHttp(t, gateway.url, pair.host, { elicit: DECLINE, logs: () => gateway.logs() });
      const result = await callTool(host, 'restart_service', { service: SERVICE });
      assert.equal(textOf(result), NOT_RESTARTED_DECLINED, host.transcript());
      assert.equal(result.isError ?? false, false);
      assert.equal(host.elicitations.length, 1);
      assertQuestionPath(host, pair, 'elicitation/create');
    });

    test('summarize_incident: the desk\'s sampling request reaches the handler, whose reply makes the summary', async (t) => {
      const host = await connectPairHostHttp(t, gateway.url, pair.host, { logs: () => gateway.logs() });
      const result = await callTool(host, 'summarize_incident', { id: INCIDENT });
      assert.equal(textOf(result), SAMPLED_SUMMARY, host.transcript());
      assert.equal(host.samplings.length, 1, host.transcript());
      assert.equal(host.samplings[0]?.maxTokens, 300);
      assert.match(JSON.stringify(host.samplings[0]?.messages), new RegExp(`Summarise incident ${INCIDENT}`));
      assertQuestionPath(host, pair, 'sampling/createMessage');
    });
  });
}

describe('harness check: the modern SDK host against the --stateless desk directly (no gateway)', { timeout: 60_000 }, () => {
  let url: string;
  let stopDesk: () => Promise<void> = async () => undefined;
  before(async () => {
    const desk = await deskHttp('stateless');
    stopDesk = desk.stop;
    url = String(desk.entry.url);
  });
  after(() => stopDesk());

  test('the SDK negotiates 2026-07-28, fulfils input_required with its handler and retries: what the pairs assert', async (t) => {
    const host = await connectPairHostHttp(t, url, 'modern', { serverName: 'incident-desk' });
    const result = await callTool(host, 'restart_service', { service: SERVICE });
    assert.equal(textOf(result), RESTARTED, host.transcript());
    assertQuestionPath(host, { host: 'modern' }, 'elicitation/create');
  });
});
