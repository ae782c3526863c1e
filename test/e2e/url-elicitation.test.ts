/**
 * @module e2e/url-elicitation.test: URL-mode elicitation through `switchboard serve` for 2025-11-25 hosts that declared
 * `elicitation.url`: the question and a -32042 error reach the host unchanged, and the upstream's
 * notifications/elicitation/complete reaches the host session that received that elicitation and no other, with the
 * lab upstream per session (stdio, Streamable HTTP) and shared by every host (Streamable HTTP).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { labUrl, urlRequiredError } from '../fixtures/lab-upstream/url-tools.js';
import { type RunningGateway, startGateway } from './harness/gateway.js';
import { RawHost } from './harness/raw-host.js';
import type { MessageReader, WireMessage } from './harness/sse-reader.js';
import { answers, toolText } from './harness/tool-results.js';
import { type HttpUpstream, labStdio, startLabHttp, streamableHttpUpstream, type UpstreamEntry } from './harness/upstreams.js';

type TestContext = { after(fn: () => Promise<void>): void };

const URL_CAPABLE = { elicitation: { form: {}, url: {} } };
const COMPLETE = 'notifications/elicitation/complete';
/** How long nothing more must arrive before a "no other completion" check (the lab sends completions within 250 ms). */
const QUIET_MS = 400;

const isCompletion = (message: WireMessage): boolean => message.method === COMPLETE;
const completedIds = (...readers: MessageReader[]): unknown[] => readers.flatMap((reader) => reader.seen.filter(isCompletion).map((m) => m.params?.elicitationId));
const quiet = () => new Promise((resolve) => setTimeout(resolve, QUIET_MS));

interface Setup {
  readonly label: string;
  start(): Promise<{ entry: UpstreamEntry; stop(): Promise<void> }>;
}

const SETUPS: Setup[] = [
  { label: 'per-session, lab over stdio', start: () => Promise.resolve({ entry: labStdio(), stop: () => Promise.resolve() }) },
  {
    label: 'per-session, lab over Streamable HTTP',
    async start() {
      const lab: HttpUpstream = await startLabHttp();
      return { entry: streamableHttpUpstream(lab.url), stop: () => lab.stop() };
    },
  },
  {
    label: 'shared, lab over Streamable HTTP',
    async start() {
      const lab: HttpUpstream = await startLabHttp();
      return { entry: streamableHttpUpstream(lab.url, { sharing: 'shared' }), stop: () => lab.stop() };
    },
  },
];

for (const setup of SETUPS) {
  describe(`URL-mode elicitation through switchboard serve (${setup.label})`, () => {
    let gateway: RunningGateway | undefined;
    let stopUpstream: () => Promise<void> = () => Promise.resolve();
    before(async () => {
      const started = await setup.start();
      stopUpstream = started.stop;
      gateway = await startGateway({ upstreams: { lab: started.entry } });
    });
    after(async () => {
      await gateway?.stop();
      await stopUpstream();
    });

    /** A 2025-11-25 host declaring URL mode, with its GET stream open (where anything outside a call arrives). */
    async function connect(t: TestContext): Promise<{ host: RawHost; outside: MessageReader }> {
      assert.ok(gateway);
      const host = await RawHost.connect(gateway.url, { protocolVersion: '2025-11-25', capabilities: URL_CAPABLE });
      t.after(() => host.close());
      return { host, outside: await host.openGetStream() };
    }

    test('elicitation/create in URL mode: two concurrent hosts each get their question unchanged and only their own completion, on the call', async (t) => {
      const [a, b] = await Promise.all([connect(t), connect(t)]);
      const flows = [
        { ...a, id: 'url-a', call: await a.host.callTool(1, 'elicit_url', { elicitationId: 'url-a' }) },
        { ...b, id: 'url-b', call: await b.host.callTool(1, 'elicit_url', { elicitationId: 'url-b' }) },
      ];
      for (const flow of flows) {
        const question = await flow.call.expectNext();
        assert.equal(question.method, 'elicitation/create', JSON.stringify(question));
        assert.equal(
          JSON.stringify(question.params),
          JSON.stringify({ mode: 'url', message: 'Connect your lab account', url: labUrl(flow.id), elicitationId: flow.id }),
          'the question is relayed byte-identical',
        );
        assert.equal((await flow.host.answer(question.id, { action: 'accept' })).status, 202);
      }
      for (const flow of flows) {
        const rest = await flow.call.rest();
        assert.deepEqual(rest.map((m) => m.method ?? `response ${String(m.id)}`), [COMPLETE, 'response 1'], JSON.stringify(rest));
        assert.deepEqual(rest[0]?.params, { elicitationId: flow.id });
        assert.equal(toolText(rest[1]), '{"action":"accept"}');
      }
      await quiet();
      for (const flow of flows) assert.deepEqual(completedIds(flow.call, flow.outside), [flow.id], `${flow.id}: exactly its own completion`);
    });

    test('-32042 reaches two concurrent hosts unchanged, and each gets only its own completion, outside the call', async (t) => {
      const [a, b] = await Promise.all([connect(t), connect(t)]);
      const flows = [
        { ...a, id: 'required-a' },
        { ...b, id: 'required-b' },
      ];
      const calls = await Promise.all(flows.map((flow) => flow.host.callTool(7, 'require_url', { elicitationId: flow.id })));
      for (const [i, flow] of flows.entries()) {
        const failed = await calls[i]?.until(answers(7));
        assert.equal(failed?.result, undefined, JSON.stringify(failed));
        assert.equal(JSON.stringify(failed?.error), JSON.stringify(urlRequiredError(flow.id)), 'code, message and data byte-identical');
      }
      for (const flow of flows) {
        const completion = await flow.outside.until(isCompletion);
        assert.deepEqual(completion.params, { elicitationId: flow.id });
      }
      await quiet();
      for (const [i, flow] of flows.entries()) {
        const call = calls[i];
        assert.ok(call);
        assert.deepEqual(completedIds(call, flow.outside), [flow.id], `${flow.id}: exactly its own completion`);
      }
    });

    test('a completion for an elicitation no host received is dropped', async (t) => {
      const { host, outside } = await connect(t);
      const call = await host.callTool(3, 'elicit_url', { elicitationId: 'issued', completeId: 'never-issued' });
      const question = await call.expectNext();
      assert.equal((await host.answer(question.id, { action: 'accept' })).status, 202);
      const rest = await call.rest();
      assert.deepEqual(rest.map((m) => m.id), [3], JSON.stringify(rest));
      await quiet();
      assert.deepEqual(completedIds(call, outside), []);
    });
  });
}
