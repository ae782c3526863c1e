/**
 * @module e2e/era-bridge-raw.test: pairs 2 and 4 of the era bridge on the wire, with a 2026-07-28 host written with plain
 * fetch (harness/modern-host.ts) in front of a real `switchboard serve`, and the incident desk as its own Streamable HTTP
 * server (`--stateless` for pair 2, legacy for pair 4). Each call that needs an answer ends `input_required` with the
 * gateway's keys and a `requestState` string; the retry (new id, same params, `inputResponses` under those keys, the state
 * byte for byte) completes with `resultType: "complete"`. Every failure message carries the whole HTTP transcript.
 * `ERA_PAIRS=2` or `ERA_PAIRS=4` runs one pair.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { restartApprovalInputParams } from '../../examples/incident-desk/tools/restart-approval.js';
import {
  APPROVAL_QUESTION,
  APPROVE,
  DECLINE,
  deskHttp,
  type EraPair,
  INCIDENT,
  MODEL_REPLY,
  NOT_RESTARTED_DECLINED,
  RESTARTED,
  SAMPLED_SUMMARY,
  selectedPairs,
  SERVICE,
  withoutMeta,
} from './harness/era-pairs.js';
import { type RunningGateway, startGateway } from './harness/gateway.js';
import { type ModernAnswer, ModernHttpHost, MODERN_REVISION } from './harness/modern-host.js';
import { toolText } from './harness/tool-results.js';

/** What one `input_required` answer offered: its single key, the embedded request, and the state to echo. */
interface Round {
  readonly key: string;
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly requestState: string;
}

/** Checks the HTTP side of a modern answer: 200, JSON or SSE, the body ended. */
function assertHttp(answer: ModernAnswer, host: ModernHttpHost): void {
  const { exchange } = answer;
  assert.equal(exchange.status, 200, host.transcript());
  assert.match(exchange.headers['content-type'] ?? '', /^(application\/json|text\/event-stream)/, host.transcript());
  assert.equal(exchange.ended, true, `the response stream ends after the answer\n${host.transcript()}`);
}

/**
 * The answer must be `input_required` with exactly one input request (what the desk asks per round); returns it.
 * `handle`: the state must be the gateway's own handle (`sb1.…`), not an upstream's.
 */
function inputRequiredRound(answer: ModernAnswer, host: ModernHttpHost, handle = true): Round {
  assertHttp(answer, host);
  const why = host.transcript();
  const result = answer.response.result;
  assert.ok(result, `a result, not an error\n${why}`);
  assert.equal(result.resultType, 'input_required', why);
  assert.equal(typeof result.requestState, 'string', `requestState is a string\n${why}`);
  const requestState = result.requestState as string;
  if (handle) assert.match(requestState, /^sb1\./, `the gateway's own handle, not an upstream's state\n${why}`);
  const inputRequests = result.inputRequests as Record<string, Record<string, unknown>> | undefined;
  assert.ok(inputRequests && typeof inputRequests === 'object', why);
  const keys = Object.keys(inputRequests);
  assert.equal(keys.length, 1, `one input request\n${why}`);
  const key = keys[0] as string;
  const entry = inputRequests[key] as Record<string, unknown>;
  assert.deepEqual(Object.keys(entry).sort(), ['method', 'params'], `an embedded request is {method, params}: no id, no jsonrpc\n${why}`);
  assert.equal(typeof entry.method, 'string');
  return { key, method: entry.method as string, params: entry.params as Record<string, unknown>, requestState };
}

/** The answer must be the final `complete` result of the call. */
function completeResult(answer: ModernAnswer, host: ModernHttpHost): ModernAnswer['response'] {
  assertHttp(answer, host);
  const why = host.transcript();
  const result = answer.response.result;
  assert.ok(result, `a result, not an error\n${why}`);
  assert.equal(result.resultType, 'complete', why);
  assert.equal(result.inputRequests, undefined, why);
  assert.equal(result.requestState, undefined, why);
  return answer.response;
}

/** The state with one letter or digit near its middle changed (every bit of a middle base64url character counts). */
function tamper(state: string): string {
  let index = Math.floor(state.length / 2);
  while (index < state.length && !/[A-Za-z0-9]/.test(state[index] as string)) index++;
  assert.ok(index < state.length, `nothing to tamper with in ${state}`);
  const replacement = state[index] === 'A' ? 'B' : 'A';
  return `${state.slice(0, index)}${replacement}${state.slice(index + 1)}`;
}

function assertApprovalQuestion(round: Round, pair: EraPair, host: ModernHttpHost): void {
  const why = host.transcript();
  assert.equal(round.method, 'elicitation/create', why);
  if (pair.desk === 'stateless') {
    // Pair 2: the desk's own embedded request, relayed as it asked it.
    assert.deepEqual(withoutMeta(round.params), restartApprovalInputParams(SERVICE), why);
  } else {
    // Pair 4: the legacy desk's server request, turned into an embedded one.
    assert.equal(round.params.message, APPROVAL_QUESTION.message, why);
    assert.deepEqual(round.params.requestedSchema, APPROVAL_QUESTION.requestedSchema, why);
    assert.ok(round.params.mode === undefined || round.params.mode === 'form', why);
  }
}

for (const pair of selectedPairs((entry) => entry.host === 'modern')) {
  describe(`${pair.label}: raw 2026-07-28 host over Streamable HTTP, incident desk over Streamable HTTP`, { timeout: 120_000 }, () => {
    let gateway: RunningGateway;
    let stopDesk: () => Promise<void> = async () => undefined;
    before(async () => {
      const desk = await deskHttp(pair.desk);
      stopDesk = desk.stop;
      gateway = await startGateway({ upstreams: { desk: desk.entry } });
    });
    after(async () => {
      await gateway?.stop();
      await stopDesk();
    });

    test('server/discover names 2026-07-28 and the desk\'s tools are listed, resultType complete', async () => {
      const host = new ModernHttpHost(gateway.url);
      const discover = await host.request('server/discover');
      assertHttp(discover, host);
      const result = discover.response.result;
      assert.ok(result, host.transcript());
      assert.equal(result.resultType, 'complete', host.transcript());
      assert.ok((result.supportedVersions as string[] | undefined)?.includes(MODERN_REVISION), host.transcript());
      const list = await host.request('tools/list');
      assertHttp(list, host);
      assert.equal(list.response.result?.resultType, 'complete', host.transcript());
      const names = ((list.response.result?.tools ?? []) as { name: string }[]).map((tool) => tool.name);
      assert.ok(names.includes('restart_service') && names.includes('summarize_incident'), host.transcript());
    });

    test('restart_service: input_required with the approval; the retry with the approval completes, RESTARTED', async () => {
      const host = new ModernHttpHost(gateway.url);
      const args = { service: SERVICE };
      const round = inputRequiredRound(await host.callTool('restart_service', args), host);
      assertApprovalQuestion(round, pair, host);
      const final = completeResult(await host.callTool('restart_service', args, { inputResponses: { [round.key]: APPROVE }, requestState: round.requestState }), host);
      assert.equal(toolText(final), RESTARTED, host.transcript());
      assert.equal(final.result?.isError ?? false, false);
      const ids = host.exchanges.map((entry) => (JSON.parse(entry.request.body) as { id: unknown }).id);
      assert.equal(new Set(ids).size, ids.length, 'every request has its own id');
    });

    test('restart_service: a decline goes to the desk, which answers NOT RESTARTED', async () => {
      const host = new ModernHttpHost(gateway.url);
      const args = { service: SERVICE };
      const round = inputRequiredRound(await host.callTool('restart_service', args), host);
      assertApprovalQuestion(round, pair, host);
      const final = completeResult(await host.callTool('restart_service', args, { inputResponses: { [round.key]: DECLINE }, requestState: round.requestState }), host);
      assert.equal(toolText(final), NOT_RESTARTED_DECLINED, host.transcript());
    });

    test('summarize_incident: input_required with the desk\'s sampling request; the model\'s reply makes the summary', async () => {
      const host = new ModernHttpHost(gateway.url);
      const args = { id: INCIDENT };
      const round = inputRequiredRound(await host.callTool('summarize_incident', args), host);
      assert.equal(round.method, 'sampling/createMessage', host.transcript());
      assert.equal(round.params.maxTokens, 300, host.transcript());
      assert.match(JSON.stringify(round.params.messages), new RegExp(`Summarise incident ${INCIDENT}`), host.transcript());
      const final = completeResult(await host.callTool('summarize_incident', args, { inputResponses: { [round.key]: MODEL_REPLY }, requestState: round.requestState }), host);
      assert.equal(toolText(final), SAMPLED_SUMMARY, host.transcript());
    });

    test('a tampered requestState is refused with -32602 (GW_ERR_REQUEST_STATE_REJECTED); nothing restarts', async () => {
      const host = new ModernHttpHost(gateway.url);
      const args = { service: SERVICE };
      const round = inputRequiredRound(await host.callTool('restart_service', args), host);
      const tampered = tamper(round.requestState);
      const answer = await host.callTool('restart_service', args, { inputResponses: { [round.key]: APPROVE }, requestState: tampered });
      const why = host.transcript();
      assert.equal(answer.response.result, undefined, `no result for a forged state\n${why}`);
      assert.equal(answer.response.error?.code, -32602, why);
      assert.equal((answer.response.error?.data as { reason?: unknown } | undefined)?.reason, 'GW_ERR_REQUEST_STATE_REJECTED', why);
    });
  });
}

describe('harness check: the raw 2026-07-28 host against the --stateless desk directly (no gateway)', { timeout: 60_000 }, () => {
  let stopDesk: () => Promise<void> = async () => undefined;
  let url: string;
  before(async () => {
    const desk = await deskHttp('stateless');
    stopDesk = desk.stop;
    url = String(desk.entry.url);
  });
  after(() => stopDesk());

  test('restart_service: input_required, and the retry built by the host completes (so the host is right)', async () => {
    const host = new ModernHttpHost(url);
    const args = { service: SERVICE };
    const round = inputRequiredRound(await host.callTool('restart_service', args), host, false);
    assert.equal(round.key, 'approval');
    assert.deepEqual(withoutMeta(round.params), restartApprovalInputParams(SERVICE));
    const final = completeResult(await host.callTool('restart_service', args, { inputResponses: { [round.key]: APPROVE }, requestState: round.requestState }), host);
    assert.equal(toolText(final), RESTARTED, host.transcript());
  });
});
