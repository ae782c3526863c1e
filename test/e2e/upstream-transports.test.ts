/** @module e2e/upstream-transports.test: one gateway in front of a stdio, a Streamable HTTP and a legacy HTTP+SSE upstream. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { type RunningGateway, startGateway } from './harness/gateway.js';
import { RawHost } from './harness/raw-host.js';
import { isToolError, toolNames, toolText } from './harness/tool-results.js';
import {
  type HttpUpstream,
  incidentDeskStdio,
  sseUpstream,
  startIncidentDeskHttp,
  startSseUpstream,
  streamableHttpUpstream,
} from './harness/upstreams.js';

const CAPABILITIES = { elicitation: { form: {} } };

interface RoundTrip {
  readonly transport: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly expectedQuestion: string;
  readonly answer: Record<string, unknown>;
  readonly expectedText: string;
}

// Both incident desks expose the same tool names, so prefix-on-conflict prefixes them; the SSE tools stay bare.
const ROUND_TRIPS: readonly RoundTrip[] = [
  {
    transport: 'stdio',
    tool: 'local_restart_service',
    args: { service: 'payments-api' },
    expectedQuestion: 'Restart payments-api? This drops in-flight requests.',
    answer: { action: 'accept', content: { confirm: true, ticket: 'CHG-1' } },
    expectedText: 'RESTARTED payments-api under CHG-1',
  },
  {
    transport: 'streamable-http',
    tool: 'remote_restart_service',
    args: { service: 'search-indexer' },
    expectedQuestion: 'Restart search-indexer? This drops in-flight requests.',
    answer: { action: 'accept', content: { confirm: true, ticket: 'CHG-2' } },
    expectedText: 'RESTARTED search-indexer under CHG-2',
  },
  {
    transport: 'sse',
    tool: 'confirm_action',
    args: { action: 'failover' },
    expectedQuestion: 'Confirm failover?',
    answer: { action: 'accept', content: { confirm: true } },
    expectedText: 'CONFIRMED failover',
  },
];

describe('switchboard serve in front of stdio, Streamable HTTP and HTTP+SSE upstreams', () => {
  let httpDesk: HttpUpstream | undefined;
  let sse: HttpUpstream | undefined;
  let gateway: RunningGateway | undefined;
  before(async () => {
    [httpDesk, sse] = await Promise.all([startIncidentDeskHttp(), startSseUpstream()]);
    gateway = await startGateway({
      upstreams: { local: incidentDeskStdio(), remote: streamableHttpUpstream(httpDesk.url), legacy: sseUpstream(sse.url) },
    });
  });
  after(async () => {
    await gateway?.stop();
    await Promise.all([httpDesk?.stop(), sse?.stop()]);
  });

  test('/healthz reports each upstream up with its transport', async () => {
    assert.ok(gateway);
    const { status, body } = await gateway.health();
    assert.equal(status, 200);
    assert.equal(body.ready, true);
    const states = Object.fromEntries(body.upstreams.map((upstream) => [upstream.name, `${upstream.transport}:${upstream.state}`]));
    assert.deepEqual(states, { local: 'stdio:up', remote: 'streamable-http:up', legacy: 'sse:up' });
  });

  test('tools/list merges the three upstreams', async (t) => {
    assert.ok(gateway);
    const host = await RawHost.connect(gateway.url, { capabilities: CAPABILITIES });
    t.after(() => host.close());
    const names = toolNames(await host.call(1, 'tools/list')).sort();
    assert.deepEqual(names, [
      'confirm_action',
      'echo',
      'local_restart_service',
      'local_summarize_incident',
      'remote_restart_service',
      'remote_summarize_incident',
    ]);
    const echo = await (await host.callTool(2, 'echo', { text: 'over SSE' })).rest();
    assert.equal(toolText(echo.at(-1)), 'over SSE');
  });

  for (const trip of ROUND_TRIPS) {
    test(`an elicitation round trip through the ${trip.transport} upstream`, async (t) => {
      assert.ok(gateway);
      const host = await RawHost.connect(gateway.url, { capabilities: CAPABILITIES });
      t.after(() => host.close());
      const call = await host.callTool(10, trip.tool, trip.args);
      const question = await call.expectNext();
      assert.equal(question.method, 'elicitation/create');
      assert.equal(question.params?.message, trip.expectedQuestion);
      const answered = await host.answer(question.id, trip.answer);
      assert.equal(answered.status, 202, answered.text);
      const rest = await call.rest();
      assert.equal(rest.length, 1, JSON.stringify(rest));
      assert.equal(rest[0]?.id, 10);
      assert.equal(isToolError(rest[0]), false, JSON.stringify(rest[0]));
      assert.equal(toolText(rest[0]), trip.expectedText);
    });
  }
});
