/** @module e2e/streaming.test: progress, host cancellation, a question the upstream withdraws, and tools/list_changed, through the gateway. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { type RunningGateway, startGateway } from './harness/gateway.js';
import { RawHost } from './harness/raw-host.js';
import type { WireMessage } from './harness/sse-reader.js';
import { answers, isToolError, resultOf, toolNames, toolText } from './harness/tool-results.js';
import { labStdio } from './harness/upstreams.js';

const isProgress = (message: WireMessage): boolean => message.method === 'notifications/progress';

describe('streaming through switchboard serve (lab upstream over stdio)', () => {
  let gateway: RunningGateway;
  before(async () => {
    gateway = await startGateway({ upstreams: { lab: labStdio() } });
  });
  after(() => gateway?.stop());

  async function connect(t: { after(fn: () => Promise<void>): void }, capabilities: Record<string, unknown> = {}): Promise<RawHost> {
    const host = await RawHost.connect(gateway.url, { capabilities });
    t.after(() => host.close());
    return host;
  }

  for (const token of ['host-token-1', 4242]) {
    test(`progress reaches the host on the call's stream with its own ${typeof token} token`, async (t) => {
      const host = await connect(t);
      const messages = await (await host.callTool(1, 'count', { n: 3, delayMs: 5 }, { progressToken: token })).rest();
      const progress = messages.filter(isProgress);
      assert.deepEqual(
        progress.map((message) => message.params),
        [1, 2, 3].map((i) => ({ progressToken: token, progress: i, total: 3, message: `step ${i} of 3` })),
      );
      assert.equal(messages.length, 4, JSON.stringify(messages));
      assert.equal(toolText(messages.at(-1)), 'counted 3', 'the result comes last');
    });
  }

  test('a call without a progress token gets no progress notifications', async (t) => {
    const host = await connect(t);
    const messages = await (await host.callTool(1, 'count', { n: 2, delayMs: 5 })).rest();
    assert.deepEqual(messages.filter(isProgress), []);
    assert.equal(toolText(messages.at(-1)), 'counted 2');
  });

  test('notifications/cancelled from the host stops the upstream handler and ends the call with -32800', async (t) => {
    const host = await connect(t);
    const call = await host.callTool(7, 'count', { n: 1_000, delayMs: 20 }, { progressToken: 'to-cancel' });
    const first = await call.expectNext();
    assert.equal(first.method, 'notifications/progress', 'the upstream is running');

    const cancelled = await host.notify('notifications/cancelled', { requestId: 7, reason: 'the host gave up' });
    assert.equal(cancelled.status, 202, cancelled.text);
    const ending = await call.until(answers(7));
    assert.equal(ending.error?.code, -32800, JSON.stringify(ending));
    assert.deepEqual(await call.rest(), [], 'nothing follows the error; the stream ends');

    const report = resultOf(await host.call(8, 'tools/call', { name: 'was_cancelled' })).structuredContent as Record<string, unknown>;
    assert.equal(report.cancelled, true, JSON.stringify(report));
    assert.equal(report.completed, false);
    assert.ok(typeof report.sent === 'number' && report.sent < 1_000);
  });

  test("an upstream that withdraws its question sends the host notifications/cancelled naming the gateway's question id", async (t) => {
    const host = await connect(t, { elicitation: { form: {} } });
    const call = await host.callTool(3, 'ask_then_withdraw');
    const question = await call.expectNext();
    assert.equal(question.method, 'elicitation/create');
    assert.equal(typeof question.id, 'string', 'the gateway picks its own ids for questions');

    const withdrawal = await call.expectNext();
    assert.equal(withdrawal.method, 'notifications/cancelled', JSON.stringify(withdrawal));
    assert.equal(withdrawal.params?.requestId, question.id);
    assert.equal(withdrawal.params?.reason, 'the lab withdrew its question');

    const rest = await call.rest();
    assert.equal(rest.length, 1, JSON.stringify(rest));
    assert.equal(isToolError(rest[0]), false);
    assert.equal(toolText(rest[0]), 'withdrawn');
  });

  test("toggle_extra: the session's GET stream gets notifications/tools/list_changed and tools/list follows", async (t) => {
    const host = await connect(t);
    const listed = toolNames(await host.call(1, 'tools/list'));
    assert.equal(listed.includes('extra'), false);
    const standalone = await host.openGetStream();

    assert.equal(toolText(await host.call(2, 'tools/call', { name: 'toggle_extra' })), 'extra registered');
    await standalone.until((message) => message.method === 'notifications/tools/list_changed');
    assert.ok(toolNames(await host.call(3, 'tools/list')).includes('extra'));
    assert.equal(toolText(await host.call(4, 'tools/call', { name: 'extra' })), 'extra here');

    assert.equal(toolText(await host.call(5, 'tools/call', { name: 'toggle_extra' })), 'extra removed');
    await standalone.until((message) => message.method === 'notifications/tools/list_changed');
    assert.equal(toolNames(await host.call(6, 'tools/list')).includes('extra'), false);
  });
});
