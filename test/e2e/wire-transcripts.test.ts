/**
 * @module e2e/wire-transcripts.test: the elicitation and sampling exchanges through the gateway, seen by a raw fetch
 * host and by the plain SDK Client, masked and compared with the golden files in docs/wire/.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { type RunningGateway, startGateway } from './harness/gateway.js';
import { assertGolden } from './harness/golden.js';
import { WIRE_DOCS_DIR } from './harness/paths.js';
import { RawHost, type WireEntry } from './harness/raw-host.js';
import { connectSdkHttp, type SdkHost } from './harness/sdk-host.js';
import { extractExchange, maskExchange } from './harness/transcript.js';
import { incidentDeskStdio } from './harness/upstreams.js';

const CAPABILITIES = { elicitation: { form: {} }, sampling: {} };
const ELICIT_ANSWER = { action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } } as const;
const SAMPLE_ANSWER = {
  role: 'assistant',
  content: { type: 'text', text: 'Checkout card payments fail with 502s; the ledger-db pool is saturated.' },
  model: 'e2e-model',
  stopReason: 'endTurn',
} as const;

interface Flow {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly expectedText: string;
  readonly golden: { readonly raw: string; readonly sdk: string };
}

const FLOWS: Record<'elicitation' | 'sampling', Flow> = {
  elicitation: {
    tool: 'restart_service',
    args: { service: 'payments-api' },
    expectedText: 'RESTARTED payments-api under CHG-2291',
    golden: { raw: 'elicitation-raw.json', sdk: 'elicitation-sdk.json' },
  },
  sampling: {
    tool: 'summarize_incident',
    args: { id: 'INC-1042' },
    expectedText: `Summary of INC-1042 (by e2e-model):\n${SAMPLE_ANSWER.content.text}`,
    golden: { raw: 'sampling-raw.json', sdk: 'sampling-sdk.json' },
  },
};

function document(host: string, kind: string, flow: Flow, steps: WireEntry[]): Record<string, unknown> {
  return {
    about: `${kind} through switchboard serve (incident desk over stdio): ${flow.tool} called by ${host} at 2025-11-25; ids masked.`,
    steps,
  };
}

describe('wire transcripts through switchboard serve (golden files in docs/wire/)', () => {
  let gateway: RunningGateway;
  before(async () => {
    gateway = await startGateway({ upstreams: { desk: incidentDeskStdio() } });
  });
  after(() => gateway?.stop());

  for (const [kind, flow] of Object.entries(FLOWS)) {
    test(`${kind}, raw fetch host`, async (t) => {
      const host = await RawHost.connect(gateway.url, { capabilities: CAPABILITIES });
      t.after(() => host.close());
      const call = await host.callTool(7, flow.tool, flow.args);
      const question = await call.expectNext();
      assert.equal(question.method, kind === 'elicitation' ? 'elicitation/create' : 'sampling/createMessage');
      const answered = await host.answer(question.id, kind === 'elicitation' ? ELICIT_ANSWER : SAMPLE_ANSWER);
      assert.equal(answered.status, 202, answered.text);
      await call.rest();

      const exchange = extractExchange(host.wire, flow.tool);
      assert.equal(exchange.steps.length, 4, JSON.stringify(exchange.steps));
      const final = exchange.steps.at(-1)?.message;
      assert.deepEqual(final?.result?.content, [{ type: 'text', text: flow.expectedText }]);
      await assertGolden(t, join(WIRE_DOCS_DIR, flow.golden.raw), document('a raw fetch host', kind, flow, maskExchange(exchange, [host.sessionId])));
    });

    test(`${kind}, SDK Client host`, async (t) => {
      const host: SdkHost = await connectSdkHttp(gateway.url, CAPABILITIES, {
        elicit: () => ELICIT_ANSWER,
        sample: () => SAMPLE_ANSWER,
      });
      t.after(() => host.close());
      const result = await host.client.callTool({ name: flow.tool, arguments: flow.args });
      assert.deepEqual(result.content, [{ type: 'text', text: flow.expectedText }]);

      const exchange = extractExchange(host.wire, flow.tool);
      assert.equal(exchange.steps.length, 4, JSON.stringify(exchange.steps));
      const sessionIds = host.sessionId === undefined ? [] : [host.sessionId];
      await assertGolden(t, join(WIRE_DOCS_DIR, flow.golden.sdk), document('the SDK Client', kind, flow, maskExchange(exchange, sessionIds)));
    });
  }
});
