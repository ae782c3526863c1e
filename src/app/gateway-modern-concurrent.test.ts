/**
 * @module Concurrent calls of one 2026-07-28 principal to a per-session upstream whose questions do not say which call
 * asked them (stdio, legacy SSE; the fake upstream here): each call runs on an upstream session of its own, so each
 * gets its own question and its own answer. Before, the attribution guess (design 009) put both questions into one
 * call's round and the other call waited for nothing (found by bench cell 3, issue 15).
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { JsonObject } from '../protocol/jsonrpc.js';
import type { ToolHandler } from '../upstream/testing/fake-upstream.js';
import { callRestart, inputRequired, legacySetup, serve, textOf } from './testing/modern-doubles.js';

/** Asks one approval naming the service it was called for, and reports the answer it got. */
const restartNamed: ToolHandler = async (call, server) => {
  const service = String((call.params?.arguments as JsonObject | undefined)?.service);
  const answer = await server.ask('elicitation/create', { mode: 'form', message: `Restart ${service}?`, requestedSchema: { type: 'object', properties: { ticket: { type: 'string' } } } });
  return { content: [{ type: 'text', text: `${service}: ${JSON.stringify('result' in answer ? answer.result : answer)}` }] };
};

test('concurrent calls of one principal that each ask once get their own question, and each answer reaches its own call', { timeout: 10_000 }, async () => {
  const { gateway, up } = legacySetup({ restart: restartNamed });
  try {
    const services = ['payments-api', 'search-indexer', 'ledger-db'];
    const firsts = await Promise.all(services.map((service, index) => serve(gateway, callRestart(`first-${index}`, { arguments: { service } })).response()));
    const rounds = firsts.map((first) => inputRequired(first));
    rounds.forEach((round, index) => {
      assert.equal(round.keys.length, 1, `call ${index} got exactly one question`);
      const params = round.inputRequests[round.keys[0] as string]?.params as JsonObject;
      assert.equal(params.message, `Restart ${services[index]}?`, `call ${index} got its own question`);
    });
    const dones = await Promise.all(
      rounds.map((round, index) =>
        serve(gateway, callRestart(`retry-${index}`, { arguments: { service: services[index] }, inputResponses: { [round.keys[0] as string]: { action: 'accept', content: { ticket: `CHG-${index}` } } }, requestState: round.requestState })).response(),
      ),
    );
    dones.forEach((done, index) => assert.equal(textOf(done), `${services[index]}: ${JSON.stringify({ action: 'accept', content: { ticket: `CHG-${index}` } })}`));
    const callers = up.servers.filter((server) => server.received.some((message) => 'method' in message && message.method === 'tools/call'));
    assert.equal(callers.length, 3, 'each call in flight had an upstream session of its own');
  } finally {
    await gateway.close();
  }
});

test('calls one after another reuse the upstream session: no session more than the calls in flight at once', { timeout: 10_000 }, async () => {
  const { gateway, up } = legacySetup({ restart: restartNamed });
  try {
    for (const index of [0, 1, 2]) {
      const round = inputRequired(await serve(gateway, callRestart(`first-${index}`, { arguments: { service: 'payments-api' } })).response());
      const done = await serve(gateway, callRestart(`retry-${index}`, { arguments: { service: 'payments-api' }, inputResponses: { [round.keys[0] as string]: { action: 'decline' } }, requestState: round.requestState })).response();
      assert.match(textOf(done), /decline/);
    }
    const callers = up.servers.filter((server) => server.received.some((message) => 'method' in message && message.method === 'tools/call'));
    assert.equal(callers.length, 1);
  } finally {
    await gateway.close();
  }
});
