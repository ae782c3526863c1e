/**
 * @module e2e/era-bridge-handles.test: pair 4 of the era bridge (a raw 2026-07-28 host over HTTP in front of a legacy
 * upstream that asks mid-call), the security of the parked `requestState` handle end to end: a real `switchboard serve`
 * and a real upstream process (test/fixtures/recording-upstream, which writes every message it receives and sends to a
 * file, so the test proves from the upstream's side what reached it).
 *
 * - A handle with one character of its payload, or of its MAC, changed is refused (400, -32602, bad-mac), so is a second
 *   spelling of the genuine MAC (malformed), and nothing reaches the upstream; the genuine handle then completes the call.
 * - A handle used by another principal (another `Authorization`) is refused (wrong-principal); its owner then completes.
 * - A handle used twice, one after the other or racing: the second use is refused (replayed), and the upstream got one
 *   answer.
 * - An abandoned parked call: past `questions.timeout` the retry is refused (expired, or gone), and the upstream got
 *   `notifications/cancelled` for its `tools/call` after the deadline.
 * - `subscriptions/listen`: acknowledged first, then the upstream's `notifications/tools/list_changed` tagged with the
 *   subscription id; closing the stream leaves the gateway serving.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { type RunningGateway, startGateway } from './harness/gateway.js';
import { type ModernAnswer, ModernHttpHost, modernHeaders, type RetryInput } from './harness/modern-host.js';
import { REPO_ROOT, TSX_FLAGS } from './harness/paths.js';
import { MessageReader, type WireMessage } from './harness/sse-reader.js';
import { toolText } from './harness/tool-results.js';

const RECORDING_UPSTREAM_MAIN = fileURLToPath(new URL('../fixtures/recording-upstream/main.ts', import.meta.url));
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
/** `questions.timeout` of the gateway: the life of a handle and the deadline of a parked call of `ask_linger`. */
const QUESTION_TIMEOUT_MS = 2_000;
/** The per-tool question timeout of `ask`, so the handle tests never race the short one. */
const ASK_TIMEOUT = '60s';
/** Bound for anything the test waits on that the system does on its own (a cancel, a notification). */
const WAIT_MS = 15_000;

/** One line of the upstream's record. */
interface RecordLine {
  readonly t: number;
  readonly pid: number;
  readonly dir: 'in' | 'out';
  readonly message: WireMessage;
}

/** The upstream's `tools/call` carrying `tag`, the elicitation it sent for it, and what it received back. */
interface UpstreamView {
  readonly call: RecordLine | undefined;
  /** Every `tools/call` with this tag (a retry must never start a second one). */
  readonly calls: RecordLine[];
  readonly elicitation: RecordLine | undefined;
  /** Responses the upstream received to that elicitation. */
  readonly answers: RecordLine[];
  /** `notifications/cancelled` for that `tools/call`. */
  readonly cancels: RecordLine[];
  readonly all: RecordLine[];
}

async function readRecord(file: string): Promise<RecordLine[]> {
  let text = '';
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return [];
  }
  const lines: RecordLine[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      lines.push(JSON.parse(line) as RecordLine);
    } catch {
      // a line still being written
    }
  }
  return lines;
}

/** What the upstream saw of the call tagged `tag` (each test has its own principal, hence its own upstream process). */
async function upstreamView(file: string, tag: string): Promise<UpstreamView> {
  const all = await readRecord(file);
  const calls = all.filter((line) => line.dir === 'in' && line.message.method === 'tools/call' && (line.message.params?.arguments as { tag?: unknown } | undefined)?.tag === tag);
  const call = calls[0];
  const same = call ? all.filter((line) => line.pid === call.pid && line.t >= call.t) : [];
  const elicitation = same.find((line) => line.dir === 'out' && line.message.method === 'elicitation/create');
  const answers = elicitation ? same.filter((line) => line.dir === 'in' && line.message.method === undefined && line.message.id === elicitation.message.id) : [];
  const cancels = call
    ? same.filter((line) => line.dir === 'in' && line.message.method === 'notifications/cancelled' && line.message.params?.requestId === call.message.id)
    : [];
  return { call, calls, elicitation, answers, cancels, all: same };
}

/** Polls the upstream's record (bounded by WAIT_MS) until `done` holds; returns the last view either way. */
async function waitForView(file: string, tag: string, done: (view: UpstreamView) => boolean): Promise<UpstreamView> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const view = await upstreamView(file, tag);
    if (done(view) || Date.now() >= deadline) return view;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function describeView(view: UpstreamView): string {
  return `--- upstream record (that process) ---\n${view.all.map((line) => `${line.t} ${line.dir === 'in' ? '<<' : '>>'} ${JSON.stringify(line.message)}`).join('\n')}`;
}

/** A fresh `Authorization` value: its own principal, so its own stand-in and its own upstream process. */
function bearer(who: string): string {
  return `Bearer ${who}-${randomUUID()}`;
}

/** POSTs `method` with the host's envelope and `authorization` (when given); returns the response to it. */
async function send(host: ModernHttpHost, authorization: string | undefined, method: string, params: Record<string, unknown>): Promise<ModernAnswer> {
  const message = host.message(method, params);
  const recorded = await host.post(message, authorization === undefined ? {} : { authorization });
  const response = recorded.messages.find((entry) => entry.id === message.id && entry.method === undefined);
  if (!response) throw new Error(`${method}: no JSON-RPC response for id ${String(message.id)}\n${host.transcript()}`);
  return { response, exchange: recorded };
}

function callTool(host: ModernHttpHost, authorization: string | undefined, name: string, args: Record<string, unknown>, retry: RetryInput = {}): Promise<ModernAnswer> {
  return send(host, authorization, 'tools/call', {
    name,
    arguments: args,
    ...(retry.inputResponses !== undefined && { inputResponses: retry.inputResponses }),
    ...(retry.requestState !== undefined && { requestState: retry.requestState }),
  });
}

interface Round {
  readonly key: string;
  readonly params: Record<string, unknown>;
  readonly requestState: string;
}

/** The answer must be `input_required` with one elicitation and a parked `sb1.` handle; returns the round. */
function parkedRound(answer: ModernAnswer, host: ModernHttpHost): Round {
  const why = host.transcript();
  assert.equal(answer.exchange.status, 200, why);
  const result = answer.response.result;
  assert.ok(result, `a result, not an error\n${why}`);
  assert.equal(result.resultType, 'input_required', why);
  const inputRequests = result.inputRequests as Record<string, { method: string; params: Record<string, unknown> }>;
  const keys = Object.keys(inputRequests ?? {});
  assert.equal(keys.length, 1, `one input request\n${why}`);
  const key = keys[0] as string;
  assert.match(key, /^sb-\d+$/, `pair 4 keys are the gateway's question ids\n${why}`);
  assert.equal(inputRequests[key]?.method, 'elicitation/create', why);
  const requestState = result.requestState;
  assert.equal(typeof requestState, 'string', why);
  const parts = (requestState as string).split('.');
  assert.equal(parts.length, 3, `sb1.<payload>.<mac>\n${why}`);
  assert.equal(parts[0], 'sb1', why);
  const payload = JSON.parse(Buffer.from(parts[1] as string, 'base64url').toString('utf8')) as Record<string, unknown>;
  assert.equal(payload.k, 'parked', `a legacy upstream's question gives a parked handle\n${why}`);
  assert.equal(payload.u, 'rec', why);
  return { key, params: inputRequests[key]?.params ?? {}, requestState: requestState as string };
}

function complete(answer: ModernAnswer, host: ModernHttpHost, text: string): void {
  const why = host.transcript();
  assert.equal(answer.exchange.status, 200, why);
  assert.ok(answer.response.result, `a result, not an error\n${why}`);
  assert.equal(answer.response.result.resultType, 'complete', why);
  assert.equal(answer.response.result.requestState, undefined, why);
  assert.equal(toolText(answer.response), text, why);
}

/** The retry must be refused: HTTP 400, -32602, GW_ERR_REQUEST_STATE_REJECTED, `data.failure` one of `failures`. */
function rejected(answer: ModernAnswer, host: ModernHttpHost, failures: readonly string[]): string {
  const why = host.transcript();
  assert.equal(answer.response.result, undefined, `no result for a refused handle\n${why}`);
  assert.equal(answer.exchange.status, 400, why);
  assert.equal(answer.response.error?.code, -32602, why);
  const data = answer.response.error?.data as { reason?: unknown; failure?: unknown } | undefined;
  assert.equal(data?.reason, 'GW_ERR_REQUEST_STATE_REJECTED', why);
  assert.ok(failures.includes(String(data?.failure)), `failure ${String(data?.failure)}, expected ${failures.join(' or ')}\n${why}`);
  return String(data?.failure);
}

/** `part` with its middle base64url character changed (a middle character carries 6 full bits: still canonical). */
function flipMiddle(part: string): string {
  const index = Math.floor(part.length / 2);
  const replacement = part[index] === 'A' ? 'B' : 'A';
  return `${part.slice(0, index)}${replacement}${part.slice(index + 1)}`;
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * `part` (the 43-character base64url of 32 bytes, whose last character carries 4 bits and 2 zero bits) with those two
 * unused bits set: the same bytes to a lenient decoder, a non-canonical spelling to a strict one.
 */
function respellLast(part: string): string {
  assert.equal(part.length, 43, 'a 32-byte MAC');
  const index = BASE64URL.indexOf(part.at(-1) as string);
  assert.equal(index % 4, 0, 'a canonical last character');
  return `${part.slice(0, -1)}${BASE64URL[index + 1] as string}`;
}

function withPart(state: string, which: 1 | 2, change: (part: string) => string): string {
  const parts = state.split('.');
  parts[which] = change(parts[which] as string);
  return parts.join('.');
}

const ANSWER = (answer: string): Record<string, unknown> => ({ action: 'accept', content: { answer } });

describe('pair 4: the parked requestState handle, end to end (raw 2026-07-28 host, legacy recording upstream)', { timeout: 120_000 }, () => {
  let gateway: RunningGateway | undefined;
  let dir: string;
  let recordFile: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchboard-handles-'));
    recordFile = join(dir, 'upstream-record.jsonl');
    gateway = await startGateway({
      upstreams: {
        rec: {
          command: process.execPath,
          args: [...TSX_FLAGS, RECORDING_UPSTREAM_MAIN],
          cwd: REPO_ROOT,
          env: { RECORD_FILE: recordFile },
          questions: { tools: { ask: { timeout: ASK_TIMEOUT } } },
        },
      },
      questions: { route: 'host', timeout: `${QUESTION_TIMEOUT_MS / 1000}s` },
      store: { type: 'memory' },
    });
  });

  after(async () => {
    // Bounded: TERM, then KILL after 3 s (the whole group, so the upstream processes too).
    await gateway?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const url = (): string => (gateway as RunningGateway).url;
  const logs = (): string => `--- gateway output ---\n${gateway?.logs() ?? ''}`;

  test('a tampered payload and a tampered MAC are each refused (bad-mac), nothing reaches the upstream, then the genuine handle completes', async () => {
    const host = new ModernHttpHost(url());
    const auth = bearer('tamper');
    const tag = `tamper-${randomUUID()}`;
    const args = { tag, message: 'Tamper test: your answer?' };
    const round = parkedRound(await callTool(host, auth, 'ask', args), host);
    assert.equal(round.params.message, 'Tamper test: your answer?', host.transcript());

    const payloadTampered = withPart(round.requestState, 1, flipMiddle);
    const macTampered = withPart(round.requestState, 2, flipMiddle);
    assert.notEqual(payloadTampered, round.requestState);
    assert.notEqual(macTampered, round.requestState);
    rejected(await callTool(host, auth, 'ask', args, { inputResponses: { [round.key]: ANSWER('forged-payload') }, requestState: payloadTampered }), host, ['bad-mac']);
    rejected(await callTool(host, auth, 'ask', args, { inputResponses: { [round.key]: ANSWER('forged-mac') }, requestState: macTampered }), host, ['bad-mac']);
    // A second spelling of the genuine MAC (same 32 bytes, the unused low bits of its last character set) is not a
    // handle this gateway issued: base64url is read strictly, one spelling per handle.
    const respelled = withPart(round.requestState, 2, respellLast);
    const [, , genuineMac] = round.requestState.split('.') as [string, string, string];
    assert.ok(Buffer.from(respelled.split('.')[2] as string, 'base64url').equals(Buffer.from(genuineMac, 'base64url')), 'a lenient decoder reads the same MAC');
    rejected(await callTool(host, auth, 'ask', args, { inputResponses: { [round.key]: ANSWER('respelled') }, requestState: respelled }), host, ['malformed']);

    let view = await upstreamView(recordFile, tag);
    assert.ok(view.elicitation, `the upstream asked\n${describeView(view)}\n${logs()}`);
    assert.equal(view.answers.length, 0, `a refused handle sends nothing upstream\n${describeView(view)}`);
    assert.equal(view.cancels.length, 0, describeView(view));

    complete(await callTool(host, auth, 'ask', args, { inputResponses: { [round.key]: ANSWER('genuine') }, requestState: round.requestState }), host, 'accept: genuine');
    view = await upstreamView(recordFile, tag);
    assert.equal(view.calls.length, 1, `one upstream call, continued by the retry\n${describeView(view)}`);
    assert.equal(view.answers.length, 1, describeView(view));
    assert.deepEqual(view.answers[0]?.message.result, ANSWER('genuine'), describeView(view));
  });

  test('a handle used by another principal is refused (wrong-principal), then its owner completes the call', async () => {
    const host = new ModernHttpHost(url());
    const alice = bearer('alice');
    const mallory = bearer('mallory');
    const tag = `principal-${randomUUID()}`;
    const args = { tag };
    const round = parkedRound(await callTool(host, alice, 'ask', args), host);

    rejected(await callTool(host, mallory, 'ask', args, { inputResponses: { [round.key]: ANSWER('mallory') }, requestState: round.requestState }), host, ['wrong-principal']);
    // No Authorization at all is a principal too (address and clientInfo.name), and not Alice.
    rejected(await callTool(host, undefined, 'ask', args, { inputResponses: { [round.key]: ANSWER('anonymous') }, requestState: round.requestState }), host, ['wrong-principal']);

    let view = await upstreamView(recordFile, tag);
    assert.ok(view.elicitation, `the upstream asked\n${describeView(view)}\n${logs()}`);
    assert.equal(view.answers.length, 0, `nothing reached the upstream\n${describeView(view)}`);

    complete(await callTool(host, alice, 'ask', args, { inputResponses: { [round.key]: ANSWER('alice') }, requestState: round.requestState }), host, 'accept: alice');
    view = await upstreamView(recordFile, tag);
    assert.equal(view.answers.length, 1, describeView(view));
    assert.deepEqual(view.answers[0]?.message.result, ANSWER('alice'), describeView(view));
  });

  test('a handle used a second time is refused (replayed); the upstream got one answer and one call', async () => {
    const host = new ModernHttpHost(url());
    const auth = bearer('replay');
    const tag = `replay-${randomUUID()}`;
    const args = { tag };
    const round = parkedRound(await callTool(host, auth, 'ask', args), host);
    const retry = { inputResponses: { [round.key]: ANSWER('once') }, requestState: round.requestState };
    complete(await callTool(host, auth, 'ask', args, retry), host, 'accept: once');
    rejected(await callTool(host, auth, 'ask', args, retry), host, ['replayed']);
    // Another answer under the same handle changes nothing either.
    rejected(await callTool(host, auth, 'ask', args, { ...retry, inputResponses: { [round.key]: ANSWER('twice') } }), host, ['replayed']);

    const view = await upstreamView(recordFile, tag);
    assert.equal(view.calls.length, 1, `a replay starts no call upstream\n${describeView(view)}`);
    assert.equal(view.answers.length, 1, `one answer upstream\n${describeView(view)}`);
    assert.deepEqual(view.answers[0]?.message.result, ANSWER('once'), describeView(view));
  });

  test('two retries racing with one handle: one completes, the other is refused (replayed); the upstream got one answer', async () => {
    const host = new ModernHttpHost(url());
    const auth = bearer('race');
    const tag = `race-${randomUUID()}`;
    const args = { tag };
    const round = parkedRound(await callTool(host, auth, 'ask', args), host);
    const [first, second] = await Promise.all([
      callTool(host, auth, 'ask', args, { inputResponses: { [round.key]: ANSWER('first') }, requestState: round.requestState }),
      callTool(host, auth, 'ask', args, { inputResponses: { [round.key]: ANSWER('second') }, requestState: round.requestState }),
    ]);
    const winners = [first, second].filter((answer) => answer.response.result !== undefined);
    assert.equal(winners.length, 1, `exactly one retry wins\n${host.transcript()}`);
    const winner = winners[0] as ModernAnswer;
    const loser = winner === first ? second : first;
    const won = winner === first ? 'first' : 'second';
    complete(winner, host, `accept: ${won}`);
    rejected(loser, host, ['replayed']);
    const view = await upstreamView(recordFile, tag);
    assert.equal(view.answers.length, 1, `one answer upstream\n${describeView(view)}`);
    assert.deepEqual(view.answers[0]?.message.result, ANSWER(won), describeView(view));
  });

  test('an abandoned parked call: past the deadline the upstream gets notifications/cancelled for its tools/call, and the late retry is refused', async (t) => {
    const host = new ModernHttpHost(url());
    const auth = bearer('abandon');
    const tag = `abandon-${randomUUID()}`;
    const args = { tag };
    const sentAt = Date.now();
    const round = parkedRound(await callTool(host, auth, 'ask_linger', args), host);

    const view = await waitForView(recordFile, tag, (seen) => seen.cancels.length > 0);
    const why = `${describeView(view)}\n${host.transcript()}\n${logs()}`;
    assert.ok(view.call, `the upstream got the call\n${why}`);
    assert.equal(view.cancels.length, 1, `the upstream got notifications/cancelled for its tools/call (id ${String(view.call?.message.id)}) within ${WAIT_MS} ms\n${why}`);
    const cancel = view.cancels[0] as RecordLine;
    assert.ok(cancel.t >= sentAt + QUESTION_TIMEOUT_MS - 50, `not before the deadline (${cancel.t - sentAt} ms after the call was sent)\n${why}`);
    // The question expired first: the upstream's elicitation was answered cancel, before the call was cancelled.
    assert.equal(view.answers.length, 1, `the expired question was answered once\n${why}`);
    assert.deepEqual(view.answers[0]?.message.result, { action: 'cancel' }, why);
    assert.ok((view.answers[0] as RecordLine).t <= cancel.t, why);

    const failure = rejected(await callTool(host, auth, 'ask_linger', args, { inputResponses: { [round.key]: ANSWER('too late') }, requestState: round.requestState }), host, ['expired', 'gone']);
    t.diagnostic(`upstream cancelled ${cancel.t - sentAt} ms after the call was sent; the late retry got failure ${failure}`);
    const later = await upstreamView(recordFile, tag);
    assert.equal(later.answers.length, 1, `the late retry sent nothing upstream (failure ${failure})\n${describeView(later)}`);
    assert.equal(later.calls.length, 1, describeView(later));
  });

  test('subscriptions/listen: acknowledged first, then the upstream\'s tools/list_changed tagged with the subscription id; closing the stream leaves the gateway serving', async () => {
    const host = new ModernHttpHost(url());
    const auth = bearer('listen');

    /** Opens a listen stream with `authorization`; returns its request id and a reader of its SSE body. */
    async function listen(): Promise<{ id: WireMessage['id']; reader: MessageReader }> {
      const message = host.message('subscriptions/listen', { notifications: { toolsListChanged: true } });
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), WAIT_MS);
      let response: Response;
      try {
        response = await fetch(host.url, { method: 'POST', headers: { ...modernHeaders(message), authorization: auth }, body: JSON.stringify(message), signal: abort.signal });
      } finally {
        clearTimeout(timer);
      }
      const reader = MessageReader.of(response, abort);
      if (reader.status !== 200) {
        const body = await reader.rest(1_000).catch(() => []);
        assert.fail(`listen answered ${reader.status}: ${JSON.stringify(body)}\n${logs()}`);
      }
      assert.match(reader.contentType, /^text\/event-stream/);
      return { id: message.id, reader };
    }

    async function toggle(expected: string): Promise<void> {
      const answer = await callTool(host, auth, 'toggle_extra', {});
      complete(answer, host, expected);
    }

    const first = await listen();
    try {
      const ack = await first.reader.expectNext(WAIT_MS);
      assert.equal(ack.method, 'notifications/subscriptions/acknowledged', JSON.stringify(first.reader.seen));
      assert.equal(ack.id, undefined, 'a notification');
      assert.equal((ack.params?._meta as Record<string, unknown> | undefined)?.[SUBSCRIPTION_ID], first.id, JSON.stringify(ack));
      assert.deepEqual(ack.params?.notifications, { toolsListChanged: true }, JSON.stringify(ack));

      await toggle('extra registered');
      const changed = await first.reader.until((message) => message.method === 'notifications/tools/list_changed', WAIT_MS);
      assert.equal((changed.params?._meta as Record<string, unknown> | undefined)?.[SUBSCRIPTION_ID], first.id, JSON.stringify(changed));
      for (const message of first.reader.seen) {
        assert.equal(message.id, undefined, `only notifications while the listen is open: ${JSON.stringify(first.reader.seen)}`);
        assert.equal((message.params?._meta as Record<string, unknown> | undefined)?.[SUBSCRIPTION_ID], first.id, JSON.stringify(message));
      }
    } finally {
      await first.reader.close();
    }

    // The host closed the stream: the gateway still serves this principal, the change is visible, and a new listen works.
    const list = await send(host, auth, 'tools/list', {});
    assert.equal(list.response.result?.resultType, 'complete', host.transcript());
    const names = ((list.response.result?.tools ?? []) as { name: string }[]).map((tool) => tool.name);
    assert.ok(names.includes('extra'), `the toggled tool is listed: ${names.join(', ')}\n${host.transcript()}`);

    const second = await listen();
    try {
      const ack = await second.reader.expectNext(WAIT_MS);
      assert.equal(ack.method, 'notifications/subscriptions/acknowledged', JSON.stringify(second.reader.seen));
      assert.equal((ack.params?._meta as Record<string, unknown> | undefined)?.[SUBSCRIPTION_ID], second.id);
      await toggle('extra removed');
      const changed = await second.reader.until((message) => message.method === 'notifications/tools/list_changed', WAIT_MS);
      assert.equal((changed.params?._meta as Record<string, unknown> | undefined)?.[SUBSCRIPTION_ID], second.id, JSON.stringify(changed));
    } finally {
      await second.reader.close();
    }
    assert.equal((await gateway?.health())?.status, 200, logs());
    assert.equal(gateway?.process.hasExited(), false, logs());
  });
});
