/** @module Tests of the pair-3 retry loop on its own: what each retry carries, the round cap, the deadline with its paused clock, failures and cancellation. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { InputRequest } from '../../protocol/input-required.js';
import type { JsonObject } from '../../protocol/jsonrpc.js';
import { GatewayError } from '../../protocol/gateway-errors.js';
import type { InputLoopIo, InputLoopLimits, RoundOutcome } from './input-loop.js';
import { runInputLoop } from './input-loop.js';

const PARAMS = { name: 'restart_service', arguments: { service: 'payments-api' }, _meta: { traceparent: '00-abc-def-01' } };
const APPROVAL: InputRequest = { method: 'elicitation/create', params: { message: 'Restart?', requestedSchema: { type: 'object', properties: {} } } };
const LIMITS: InputLoopLimits = { maxRounds: 8, deadlineMs: 10_000 };
const DONE = { resultType: 'complete', content: [{ type: 'text', text: 'done' }] };

function asking(requests: Record<string, InputRequest>, requestState?: string): JsonObject {
  return { resultType: 'input_required', inputRequests: requests as unknown as JsonObject, ...(requestState === undefined ? {} : { requestState }) };
}

/** IO whose upstream answers from a script and whose asks answer from another; records everything, on a clock the test moves. */
function scripted(upstream: (params: JsonObject, timeoutMs: number) => JsonObject | Promise<JsonObject>, answer: (requests: Record<string, InputRequest>) => RoundOutcome | Promise<RoundOutcome>) {
  const clock = { now: 0 };
  const retries: { params: JsonObject; timeoutMs: number }[] = [];
  const asked: Record<string, InputRequest>[] = [];
  const abort = new AbortController();
  const io: InputLoopIo = {
    signal: abort.signal,
    now: () => clock.now,
    ask: async (requests) => {
      asked.push(requests);
      return answer(requests);
    },
    retry: async (params, timeoutMs) => {
      retries.push({ params, timeoutMs });
      return upstream(params, timeoutMs);
    },
  };
  return { io, clock, retries, asked, abort };
}

test('one round: the retry carries the original params, the answers keyed as asked and the requestState byte for byte', async () => {
  const state = 'v1.eyJ0b29sIjoicmVzdGFydCJ9.\u00e9\u{1F600} =';
  const { io, retries, asked } = scripted(() => DONE, () => ({ ok: true, answers: { approval: { action: 'accept', content: { confirm: true } } } }));
  const outcome = await runInputLoop({ method: 'tools/call', params: PARAMS, first: asking({ approval: APPROVAL }, state), spentMs: 5, limits: LIMITS }, io);
  assert.deepEqual(outcome, { ok: true, result: DONE, rounds: 1 });
  assert.deepEqual(asked, [{ approval: APPROVAL }]);
  assert.equal(retries.length, 1);
  assert.deepEqual(retries[0]?.params, { ...PARAMS, inputResponses: { approval: { action: 'accept', content: { confirm: true } } }, requestState: state });
  assert.equal(retries[0]?.params.requestState, state, 'exactly the same string');
});

test('no requestState given, none sent back; a decline goes upstream as the answer', async () => {
  const { io, retries } = scripted(() => DONE, () => ({ ok: true, answers: { approval: { action: 'decline' } } }));
  const outcome = await runInputLoop({ method: 'tools/call', params: PARAMS, first: asking({ approval: APPROVAL }), spentMs: 0, limits: LIMITS }, io);
  assert.equal(outcome.ok, true);
  assert.equal(Object.hasOwn(retries[0]?.params ?? {}, 'requestState'), false);
  assert.deepEqual(retries[0]?.params.inputResponses, { approval: { action: 'decline' } });
});

test('several rounds: each retry has only its own round\'s answers and state, never an earlier one\'s', async () => {
  const script = [asking({ second: APPROVAL }, 's2'), DONE];
  const { io, retries, asked } = scripted(() => script.shift() ?? DONE, (requests) => ({ ok: true, answers: Object.fromEntries(Object.keys(requests).map((k) => [k, { action: 'accept', content: { k } }])) }));
  const outcome = await runInputLoop({ method: 'prompts/get', params: { name: 'triage' }, first: asking({ first: APPROVAL }, 's1'), spentMs: 0, limits: LIMITS }, io);
  assert.deepEqual(outcome, { ok: true, result: DONE, rounds: 2 });
  assert.deepEqual(asked.map((r) => Object.keys(r)), [['first'], ['second']]);
  assert.deepEqual(retries.map((r) => r.params), [
    { name: 'triage', inputResponses: { first: { action: 'accept', content: { k: 'first' } } }, requestState: 's1' },
    { name: 'triage', inputResponses: { second: { action: 'accept', content: { k: 'second' } } }, requestState: 's2' },
  ]);
});

test('state without questions (load shedding): retried at once with the state and no inputResponses', async () => {
  const { io, retries, asked } = scripted(() => DONE, () => assert.fail('nothing to ask'));
  const outcome = await runInputLoop({ method: 'resources/read', params: { uri: 'x://1' }, first: { resultType: 'input_required', requestState: 'busy' }, spentMs: 0, limits: LIMITS }, io);
  assert.equal(outcome.ok, true);
  assert.deepEqual(asked, []);
  assert.deepEqual(retries[0]?.params, { uri: 'x://1', requestState: 'busy' });
});

test('the round cap: one input_required more than maxRounds ends the call with the reason', async () => {
  const { io, retries } = scripted(() => asking({ again: APPROVAL }, 'more'), () => ({ ok: true, answers: { again: { action: 'accept' } } }));
  const outcome = await runInputLoop({ method: 'tools/call', params: PARAMS, first: asking({ again: APPROVAL }), spentMs: 0, limits: { maxRounds: 3, deadlineMs: 10_000 } }, io);
  assert.deepEqual(outcome, { ok: false, reason: 'it asked for input more than 3 times (inputRequired.maxRounds)' });
  assert.equal(retries.length, 3);
});

test('the deadline counts the upstream\'s time only: asking is free, each retry may use what is left', async () => {
  const { io, clock, retries } = scripted(
    (_params, timeoutMs) => {
      clock.now += 400; // the upstream works 400 ms per leg
      assert.ok(timeoutMs > 0);
      return asking({ again: APPROVAL });
    },
    () => {
      clock.now += 60_000; // a person thinks for a minute each round
      return { ok: true, answers: { again: { action: 'accept' } } };
    },
  );
  const first = asking({ again: APPROVAL });
  const outcome = await runInputLoop({ method: 'tools/call', params: PARAMS, first, spentMs: 100, limits: { maxRounds: 8, deadlineMs: 1000 } }, io);
  // 100 (first) + 400 + 400 = 900 spent after two retries; the third is allowed the 100 ms left (a real leg would time
  // out then; this one overruns to 1300), so after its round nothing is left: the call ends without a fourth retry.
  assert.deepEqual(retries.map((r) => r.timeoutMs), [900, 500, 100]);
  assert.deepEqual(outcome, { ok: false, reason: 'it did not complete within inputRequired.deadline (1000 ms; the clock stops while a question is open)' });
});

test('a retry that times out upstream ends the call at the deadline; any other upstream error is the host\'s answer', async () => {
  const timedOut = scripted(() => Promise.reject(new GatewayError('GW_ERR_UPSTREAM_TIMEOUT', 'slow')), () => ({ ok: true, answers: { a: { action: 'accept' } } }));
  const outcome = await runInputLoop({ method: 'tools/call', params: PARAMS, first: asking({ a: APPROVAL }), spentMs: 0, limits: LIMITS }, timedOut.io);
  assert.equal(outcome.ok, false);
  assert.match(outcome.ok ? '' : outcome.reason, /inputRequired\.deadline \(10000 ms/);

  const refused = new Error('Invalid or expired requestState');
  const failing = scripted(() => Promise.reject(refused), () => ({ ok: true, answers: { a: { action: 'accept' } } }));
  await assert.rejects(runInputLoop({ method: 'tools/call', params: PARAMS, first: asking({ a: APPROVAL }), spentMs: 0, limits: LIMITS }, failing.io), (error) => error === refused);
});

test('a round that cannot go back upstream ends the loop without a retry', async () => {
  const { io, retries } = scripted(() => DONE, () => ({ ok: false, reason: "its sampling request 'summary' was answered with an error: User rejected sampling (-1)" }));
  const outcome = await runInputLoop({ method: 'tools/call', params: PARAMS, first: asking({ summary: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } } }), spentMs: 0, limits: LIMITS }, io);
  assert.deepEqual(outcome, { ok: false, reason: "its sampling request 'summary' was answered with an error: User rejected sampling (-1)" });
  assert.equal(retries.length, 0);
});

test('a malformed input_required is refused before anything is asked', async () => {
  const bad: JsonObject[] = [
    { resultType: 'input_required' },
    { resultType: 'input_required', inputRequests: { x: { method: 'tools/call', params: {} } } },
    { resultType: 'input_required', inputRequests: { x: { method: 'roots/list', id: 3 } } },
    { resultType: 'input_required', requestState: 42 },
    { resultType: 'input_required', inputRequests: [] },
  ];
  for (const first of bad) {
    const { io, asked, retries } = scripted(() => DONE, () => ({ ok: true, answers: {} }));
    const outcome = await runInputLoop({ method: 'tools/call', params: PARAMS, first, spentMs: 0, limits: LIMITS }, io);
    assert.equal(outcome.ok, false, JSON.stringify(first));
    assert.match(outcome.ok ? '' : outcome.reason, /^its input_required result is invalid: /);
    assert.equal(asked.length + retries.length, 0);
  }
});

test('a complete first result needs no loop', async () => {
  const { io, asked, retries } = scripted(() => assert.fail('no retry'), () => assert.fail('nothing to ask'));
  assert.deepEqual(await runInputLoop({ method: 'tools/call', params: PARAMS, first: DONE, spentMs: 0, limits: LIMITS }, io), { ok: true, result: DONE, rounds: 0 });
  assert.equal(asked.length + retries.length, 0);
});

test('cancelled while its questions are open: GW_ERR_REQUEST_CANCELLED at once, nothing retried', async () => {
  let release: (outcome: RoundOutcome) => void = () => undefined;
  const { io, retries, abort } = scripted(() => DONE, () => new Promise<RoundOutcome>((resolve) => (release = resolve)));
  const running = runInputLoop({ method: 'tools/call', params: PARAMS, first: asking({ a: APPROVAL }), spentMs: 0, limits: LIMITS }, io);
  await new Promise((resolve) => setImmediate(resolve));
  abort.abort();
  await assert.rejects(running, (error) => error instanceof GatewayError && error.code === 'GW_ERR_REQUEST_CANCELLED');
  release({ ok: true, answers: { a: { action: 'accept' } } });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(retries.length, 0, 'a late answer after the cancel changes nothing');
});
