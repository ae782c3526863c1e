/**
 * @module e2e/elicitation-translation.test: one form question per schema shape (lab `elicit_shape`), relayed by the
 * gateway to hosts at 2025-06-18 (translated), 2025-11-25 (untouched) and 2025-03-26 (never asked), with the lab
 * upstream over stdio and over Streamable HTTP; answers are checked against the schema the host was sent, and a
 * 2025-06-18 host's accepted answer gets the upstream's defaults it was never shown.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import type { ElicitRequest } from '@modelcontextprotocol/client';

import { DEFAULTS_FORM, ELICIT_SHAPES, type ElicitShape, SHAPE_FIELD, SHAPE_NAMES, shapeParams } from '../fixtures/lab-upstream/elicit-shapes.js';
import { type RunningGateway, startGateway, writeConfigFile } from './harness/gateway.js';
import { RawHost } from './harness/raw-host.js';
import { connectSdkStdio } from './harness/sdk-host.js';
import type { MessageReader, WireMessage } from './harness/sse-reader.js';
import { answers, isRequest, isToolError, toolText } from './harness/tool-results.js';
import { type HttpUpstream, labStdio, startLabHttp, streamableHttpUpstream } from './harness/upstreams.js';

type TestContext = { after(fn: () => Promise<void>): void };

const OLD = '2025-06-18';
const NEW = '2025-11-25';

/** What a 2025-06-18 host must receive as the property schema; `undefined` = the question is never sent. */
const AT_20250618: Record<ElicitShape, Record<string, unknown> | undefined> = {
  'string-default': { type: 'string', title: 'Name' },
  'number-default': { type: 'number', title: 'Count', minimum: 0, maximum: 10 },
  'boolean-default': { type: 'boolean', title: 'Confirm', default: true },
  'untitled-enum': { type: 'string', title: 'Colour', enum: ['red', 'green', 'blue'] },
  'legacy-enum': { type: 'string', title: 'Colour', enum: ['red', 'green', 'blue'], enumNames: ['Red', 'Green', 'Blue'] },
  'titled-enum': { type: 'string', title: 'Severity', enum: ['sev3', 'sev1', 'sev2'], enumNames: ['Minor', 'Critical', 'Major'] },
  'multi-untitled': undefined,
  'multi-titled': undefined,
};

/** A valid answer value per shape (for the titled single-select: a `const`, not a title). */
const VALID: Record<ElicitShape, unknown> = {
  'string-default': 'Grace',
  'number-default': 7,
  'boolean-default': false,
  'untitled-enum': 'green',
  'legacy-enum': 'blue',
  'titled-enum': 'sev1',
  'multi-untitled': ['eu', 'ap'],
  'multi-titled': ['us'],
};

/** An invalid answer value per shape, and why it is invalid. */
const INVALID: Record<ElicitShape, { value: unknown; why: string }> = {
  'string-default': { value: 42, why: 'a number for a string field' },
  'number-default': { value: 11, why: 'above maximum' },
  'boolean-default': { value: 'yes', why: 'a string for a boolean field' },
  'untitled-enum': { value: 'purple', why: 'outside the enum' },
  'legacy-enum': { value: 'Red', why: 'a title (enumNames) instead of a value' },
  'titled-enum': { value: 'Critical', why: 'a title instead of the const' },
  'multi-untitled': { value: ['eu', 'mars'], why: 'an item outside the enum' },
  'multi-titled': { value: 'us', why: 'a string for a multi-select' },
};

/** The `elicitation/create` params a 2025-06-18 host must receive for `shape`. */
function expectedAt20250618(shape: ElicitShape): Record<string, unknown> {
  return {
    message: `Answer the ${shape} question.`,
    requestedSchema: { type: 'object', properties: { [SHAPE_FIELD]: AT_20250618[shape] }, required: [SHAPE_FIELD] },
  };
}

const acceptText = (value: unknown): string => JSON.stringify({ action: 'accept', content: { [SHAPE_FIELD]: value } });

/** A question no one may take (route host) ends as the upstream's error: the -32601 a host lacking the capability sends (the lab's SDK shows only its message), never `cancel`. */
function assertHostLacks(message: WireMessage | undefined): void {
  assert.equal(isToolError(message), true, JSON.stringify(message));
  assert.match(toolText(message), /^Method not found: elicitation\/create \(/, JSON.stringify(message));
}

/** The questions on a call's stream. */
const questionsIn = (messages: readonly WireMessage[]): WireMessage[] => messages.filter(isRequest);

interface Upstreams {
  readonly label: string;
  start(): Promise<{ entry: Record<string, unknown>; stop(): Promise<void> }>;
}

const UPSTREAMS: Upstreams[] = [
  { label: 'lab upstream over stdio', start: () => Promise.resolve({ entry: labStdio(), stop: () => Promise.resolve() }) },
  {
    label: 'lab upstream over Streamable HTTP',
    async start() {
      const lab: HttpUpstream = await startLabHttp();
      return { entry: streamableHttpUpstream(lab.url), stop: () => lab.stop() };
    },
  },
];

for (const upstream of UPSTREAMS) {
  describe(`elicitation translation through switchboard serve (${upstream.label})`, () => {
    let gateway: RunningGateway | undefined;
    let stopUpstream: () => Promise<void> = () => Promise.resolve();
    before(async () => {
      const started = await upstream.start();
      stopUpstream = started.stop;
      gateway = await startGateway({ upstreams: { lab: started.entry } });
    });
    after(async () => {
      await gateway?.stop();
      await stopUpstream();
    });

    async function connect(t: TestContext, protocolVersion: string, capabilities: Record<string, unknown> = { elicitation: {} }): Promise<RawHost> {
      assert.ok(gateway);
      const host = await RawHost.connect(gateway.url, { protocolVersion, capabilities });
      assert.equal(host.protocolVersion, protocolVersion, 'the gateway accepts the pinned revision');
      t.after(() => host.close());
      return host;
    }

    /** Calls elicit_shape and waits for its question (which must be the first message on the call's stream). */
    async function ask(host: RawHost, id: number, shape: ElicitShape): Promise<{ call: MessageReader; question: WireMessage }> {
      const call = await host.callTool(id, 'elicit_shape', { shape });
      const question = await call.expectNext();
      assert.equal(question.method, 'elicitation/create', JSON.stringify(question));
      return { call, question };
    }

    /** The rest of a call's stream must be exactly its (successful) result. */
    async function finish(call: MessageReader, id: number): Promise<WireMessage> {
      const rest = await call.rest();
      assert.equal(rest.length, 1, JSON.stringify(rest));
      const ending = rest[0];
      assert.ok(ending && answers(id)(ending), JSON.stringify(rest));
      assert.equal(isToolError(ending), false, JSON.stringify(ending));
      return ending;
    }

    for (const shape of SHAPE_NAMES) {
      const sendable = AT_20250618[shape] !== undefined;

      test(`${OLD} host, ${shape}: ${sendable ? 'receives the translated schema; the answer round-trips' : 'is never asked; the upstream gets -32601'}`, async (t) => {
        const host = await connect(t, OLD);
        if (!sendable) {
          const messages = await (await host.callTool(1, 'elicit_shape', { shape })).rest();
          assert.deepEqual(questionsIn(messages), [], 'a multi-select never reaches a 2025-06-18 host');
          assert.equal(messages.length, 1, JSON.stringify(messages));
          assertHostLacks(messages[0]);
          return;
        }
        const { call, question } = await ask(host, 1, shape);
        const params = question.params as Record<string, unknown> & { requestedSchema: { properties: Record<string, unknown> } };
        assert.deepEqual(params.requestedSchema.properties[SHAPE_FIELD], AT_20250618[shape]);
        assert.deepEqual(params, expectedAt20250618(shape), 'no mode, elicitationId or $schema; nothing else changed');
        const posted = await host.answer(question.id, { action: 'accept', content: { [SHAPE_FIELD]: VALID[shape] } });
        assert.equal(posted.status, 202, posted.text);
        assert.equal(toolText(await finish(call, 1)), acceptText(VALID[shape]));
      });

      test(`${NEW} host, ${shape}: receives the upstream's params byte-identical; the answer round-trips`, async (t) => {
        const host = await connect(t, NEW);
        const { call, question } = await ask(host, 1, shape);
        assert.deepEqual(question.params, shapeParams(shape));
        assert.equal(JSON.stringify(question.params), JSON.stringify(shapeParams(shape)), 'same keys in the same order');
        const posted = await host.answer(question.id, { action: 'accept', content: { [SHAPE_FIELD]: VALID[shape] } });
        assert.equal(posted.status, 202, posted.text);
        assert.equal(toolText(await finish(call, 1)), acceptText(VALID[shape]));
      });

      for (const revision of sendable ? [OLD, NEW] : [NEW]) {
        const invalid = INVALID[shape];
        // Issue 11 item 13: the refused answer settles the question (it no longer stays open for a corrected one).
        test(`${revision} host, ${shape}: an invalid answer (${invalid.why}) gets 400/-32602 naming the field; the upstream gets -32602 and the call ends`, async (t) => {
          const host = await connect(t, revision);
          const { call, question } = await ask(host, 1, shape);
          const refused = await host.answer(question.id, { action: 'accept', content: { [SHAPE_FIELD]: invalid.value } });
          assert.equal(refused.status, 400, refused.text);
          assert.equal(refused.json?.error?.code, -32602, refused.text);
          assert.match(refused.json?.error?.message ?? '', new RegExp(`"${SHAPE_FIELD}"`), refused.text);
          const rest = await call.rest();
          const ending = rest.at(-1);
          assert.ok(ending && answers(1)(ending), JSON.stringify(rest));
          assert.equal(isToolError(ending), true, JSON.stringify(ending));
          // The lab's SDK server turns the -32602 it got into an isError result with its message.
          assert.match(toolText(ending), new RegExp(`^Invalid params: the host's answer was refused: .*"${SHAPE_FIELD}"`), JSON.stringify(ending));
          const corrected = await host.answer(question.id, { action: 'accept', content: { [SHAPE_FIELD]: VALID[shape] } });
          assert.equal(corrected.status, 400, `the question is settled: ${corrected.text}`);
          assert.equal(corrected.json?.error?.code, -32600, corrected.text);
        });
      }
    }

    test(`${OLD} host, titled-enum: decline passes through without content`, async (t) => {
      const host = await connect(t, OLD);
      const { call, question } = await ask(host, 1, 'titled-enum');
      const posted = await host.answer(question.id, { action: 'decline' });
      assert.equal(posted.status, 202, posted.text);
      assert.equal(toolText(await finish(call, 1)), JSON.stringify({ action: 'decline' }));
    });

    for (const shape of ['titled-enum', 'string-default'] as const) {
      test(`2025-03-26 host declaring elicitation, ${shape}: never asked; the upstream gets -32601`, async (t) => {
        const host = await connect(t, '2025-03-26');
        const messages = await (await host.callTool(1, 'elicit_shape', { shape })).rest();
        assert.deepEqual(questionsIn(messages), []);
        assert.equal(messages.length, 1, JSON.stringify(messages));
        assertHostLacks(messages[0]);
      });
    }

    test(`${OLD} host accepting with only some fields: the upstream receives its own defaults for the rest (the boolean the host saw excepted)`, async (t) => {
      const host = await connect(t, OLD);
      const call = await host.callTool(1, 'elicit_defaults');
      const question = await call.expectNext();
      assert.equal(question.method, 'elicitation/create', JSON.stringify(question));
      const sent = question.params as { requestedSchema: { properties: Record<string, Record<string, unknown>> } };
      assert.deepEqual(
        Object.entries(sent.requestedSchema.properties).filter(([, property]) => 'default' in property).map(([name]) => name),
        ['notify'],
        'the host saw no default but the boolean one',
      );
      const posted = await host.answer(question.id, { action: 'accept', content: { ticket: 'CHG-7', retries: 5 } });
      assert.equal(posted.status, 202, posted.text);
      const upstreamGot = { action: 'accept', content: { ticket: 'CHG-7', retries: 5, owner: 'Ada', severity: 'sev2' } };
      assert.equal(toolText(await finish(call, 1)), JSON.stringify(upstreamGot));
    });

    test(`${NEW} host accepting with only some fields: its answer reaches the upstream as sent, nothing filled in`, async (t) => {
      const host = await connect(t, NEW);
      const call = await host.callTool(1, 'elicit_defaults');
      const question = await call.expectNext();
      assert.deepEqual(question.params, DEFAULTS_FORM, 'the form as the upstream sent it, defaults included');
      const posted = await host.answer(question.id, { action: 'accept', content: { ticket: 'CHG-8' } });
      assert.equal(posted.status, 202, posted.text);
      assert.equal(toolText(await finish(call, 1)), JSON.stringify({ action: 'accept', content: { ticket: 'CHG-8' } }));
    });

    test(`${OLD} host without the elicitation capability, titled-enum: never asked; the upstream gets -32601`, async (t) => {
      const host = await connect(t, OLD, {});
      const messages = await (await host.callTool(1, 'elicit_shape', { shape: 'titled-enum' })).rest();
      assert.deepEqual(questionsIn(messages), []);
      assertHostLacks(messages.at(-1));
    });
  });
}

test('switchboard stdio: an SDK host gets the titled enum for its negotiated revision and its const round-trips', async (t) => {
  const config = await writeConfigFile({ upstreams: { lab: labStdio() } });
  t.after(() => config.remove());
  const questions: ElicitRequest['params'][] = [];
  const host = await connectSdkStdio(config.path, { elicitation: { form: {} } }, {
    elicit: (request) => {
      questions.push(request.params);
      return { action: 'accept', content: { [SHAPE_FIELD]: 'sev1' } };
    },
  });
  t.after(() => host.close());

  const result = await host.client.callTool({ name: 'elicit_shape', arguments: { shape: 'titled-enum' } });
  assert.deepEqual(result.content, [{ type: 'text', text: acceptText('sev1') }]);
  assert.equal(questions.length, 1);

  const init = host.wire.find((entry) => entry.direction === 'gateway->host' && typeof entry.message.result?.protocolVersion === 'string');
  const revision = String(init?.message.result?.protocolVersion);
  const received = (questions[0] as { requestedSchema: { properties: Record<string, unknown> } }).requestedSchema.properties[SHAPE_FIELD];
  if (revision === NEW) assert.deepEqual(questions[0], shapeParams('titled-enum'));
  else assert.deepEqual(received, AT_20250618['titled-enum'], `negotiated ${revision}`);
  assert.ok(revision === NEW || revision === OLD, `negotiated ${revision}`);
  assert.deepEqual(host.errors.map((error) => error.message), [], `gateway stderr:\n${host.stderr()}`);
});

// Guard: every shape the lab knows is covered by the tables above.
assert.deepEqual(Object.keys(AT_20250618).sort(), Object.keys(ELICIT_SHAPES).sort());
