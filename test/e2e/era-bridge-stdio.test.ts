/**
 * @module e2e/era-bridge-stdio.test: the era bridge behind `switchboard stdio` (the host spawns the gateway), one case per
 * host era: a legacy SDK v2 host in front of the `--stateless` desk (pair 3), a modern SDK v2 host in front of the legacy
 * desk (pair 4), and a raw 2026-07-28 host writing newline-delimited JSON in front of the `--stateless` desk (pair 2).
 * The desks are spawned by the gateway over stdio. `ERA_PAIRS=3` (etc.) runs only those pairs.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { restartApprovalInputParams } from '../../examples/incident-desk/tools/restart-approval.js';
import { APPROVE, DECLINE, deskStdio, type EraPair, NOT_RESTARTED_DECLINED, RESTARTED, selectedPairs, SERVICE, withoutMeta } from './harness/era-pairs.js';
import { assertQuestionPath, callTool, connectPairHostStdio, type TestContext, textOf } from './harness/era-sdk-host.js';
import { writeConfigFile } from './harness/gateway.js';
import { ModernStdioHost } from './harness/modern-host.js';
import { INCIDENT_DESK_BIN } from './harness/paths.js';
import type { WireMessage } from './harness/sse-reader.js';
import { toolText } from './harness/tool-results.js';

async function configFor(t: TestContext, pair: EraPair): Promise<string> {
  const file = await writeConfigFile({ upstreams: { desk: deskStdio(pair.desk) } });
  t.after(() => file.remove());
  return file.path;
}

/** An `input_required` answer over stdio with one input request; returns its key, request and state. */
function inputRequiredOf(response: WireMessage, host: ModernStdioHost): { key: string; method: string; params: Record<string, unknown>; requestState: string } {
  const why = host.transcript();
  const result = response.result;
  assert.ok(result, `a result, not an error\n${why}`);
  assert.equal(result.resultType, 'input_required', why);
  assert.equal(typeof result.requestState, 'string', `requestState is a string\n${why}`);
  const inputRequests = (result.inputRequests ?? {}) as Record<string, { method: string; params: Record<string, unknown> }>;
  const keys = Object.keys(inputRequests);
  assert.equal(keys.length, 1, why);
  const key = keys[0] as string;
  const entry = inputRequests[key] as { method: string; params: Record<string, unknown> };
  return { key, method: entry.method, params: entry.params, requestState: result.requestState as string };
}

const only = (number: EraPair['pair']): EraPair | undefined => selectedPairs((entry) => entry.pair === number)[0];
const pair2 = only(2);
const pair3 = only(3);
const pair4 = only(4);

describe('switchboard stdio, one host of each era', { timeout: 120_000 }, () => {
  if (pair3) {
    test(`${pair3.label}: a legacy SDK host approves; the question came as a server request, RESTARTED`, async (t) => {
      const host = await connectPairHostStdio(t, await configFor(t, pair3), 'legacy');
      const result = await callTool(host, 'restart_service', { service: SERVICE });
      assert.equal(textOf(result), RESTARTED, host.transcript());
      assertQuestionPath(host, pair3, 'elicitation/create');
      assert.deepEqual(host.sdk.errors.map((error) => error.message), [], host.transcript());
    });
  }

  if (pair4) {
    test(`${pair4.label}: a modern SDK host declines; the question came as input_required, NOT RESTARTED`, async (t) => {
      const host = await connectPairHostStdio(t, await configFor(t, pair4), 'modern', { elicit: DECLINE });
      const result = await callTool(host, 'restart_service', { service: SERVICE });
      assert.equal(textOf(result), NOT_RESTARTED_DECLINED, host.transcript());
      assertQuestionPath(host, pair4, 'elicitation/create');
      assert.deepEqual(host.sdk.errors.map((error) => error.message), [], host.transcript());
    });
  }

  if (pair2) {
    test(`${pair2.label}: a raw 2026-07-28 host over newline-delimited JSON: input_required, retry, complete`, async (t) => {
      const host = ModernStdioHost.start(await configFor(t, pair2));
      t.after(() => host.close());
      const args = { service: SERVICE };
      const round = inputRequiredOf(await host.callTool('restart_service', args), host);
      assert.equal(round.method, 'elicitation/create', host.transcript());
      assert.deepEqual(withoutMeta(round.params), restartApprovalInputParams(SERVICE), host.transcript());
      assert.match(round.requestState, /^sb1\./, `the gateway's own handle\n${host.transcript()}`);
      const final = await host.callTool('restart_service', args, { inputResponses: { [round.key]: APPROVE }, requestState: round.requestState });
      assert.equal(final.result?.resultType, 'complete', host.transcript());
      assert.equal(toolText(final), RESTARTED, host.transcript());
      assert.deepEqual(host.strayLines(), [], 'nothing but JSON-RPC on stdout');
    });
  }
});

test('harness check: the raw stdio host against the --stateless desk itself (no gateway)', { timeout: 60_000 }, async (t) => {
  const host = ModernStdioHost.spawn([INCIDENT_DESK_BIN, '--stateless']);
  t.after(() => host.close());
  const args = { service: SERVICE };
  const round = inputRequiredOf(await host.callTool('restart_service', args), host);
  assert.equal(round.key, 'approval');
  const final = await host.callTool('restart_service', args, { inputResponses: { [round.key]: APPROVE }, requestState: round.requestState });
  assert.equal(final.result?.resultType, 'complete', host.transcript());
  assert.equal(toolText(final), RESTARTED, host.transcript());
});
