/** @module The resource step: its templated URI read from its upstream, JSON text parsed for later templates, failures and timeouts. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { ResourceStep } from './definition.js';
import { runComposite } from './runner.js';
import { composite, fakeContext, fakeTools, stepOf, textOf, textOfResult, toolStep, waitForAbort } from './testing/fakes.js';

function resourceStep(id: string, uri: string, fields: Partial<ResourceStep> = {}): ResourceStep {
  return { kind: 'resource', id, dependsOn: [], upstream: 'desk', uri, timeoutMs: 1_000, ...fields };
}

test('a resource step reads its templated URI; later steps see its JSON', async () => {
  const tools = fakeTools({
    'read:incident://incidents/INC-1': () => ({ contents: [{ uri: 'incident://incidents/INC-1', mimeType: 'application/json', text: '{"service":"payments-api"}' }] }),
    restart: (args) => textOf(`restarted ${String(args.service)}`),
  });
  const definition = composite([
    resourceStep('incident', 'incident://incidents/{{ input.id }}'),
    toolStep('restart', { dependsOn: ['incident'], arguments: { service: '{{ steps.incident.json.service }}' } }),
  ]);
  const { record, result } = await runComposite(definition, fakeContext({ tools, input: { id: 'INC-1' } }));
  assert.equal(textOfResult(result), 'restarted payments-api');
  assert.deepEqual(tools.calls.map((call) => [call.upstream, call.tool]), [['desk', 'read:incident://incidents/INC-1'], ['ops', 'restart']]);
  assert.equal(stepOf(record, 'incident').state, 'completed');
  assert.deepEqual((stepOf(record, 'incident').output as { json: unknown }).json, { service: 'payments-api' });
});

test('a read that fails, times out or renders no URI fails the composite naming the step', async () => {
  const failing = fakeTools({ 'read:x://gone': () => Promise.reject(new Error('no such resource')) });
  const gone = await runComposite(composite([resourceStep('read', 'x://gone')]), fakeContext({ tools: failing }));
  assert.equal(gone.result.isError, true);
  assert.match(textOfResult(gone.result), /read.*no such resource/);

  const slow = fakeTools({ 'read:x://slow': (_args, call) => waitForAbort(call.signal) });
  const late = await runComposite(composite([resourceStep('read', 'x://slow', { timeoutMs: 20 })]), fakeContext({ tools: slow }));
  assert.equal(late.result.isError, true);
  assert.match(textOfResult(late.result), /timed out after 20 ms/);

  const empty = await runComposite(composite([resourceStep('read', '{{ input.missing }}')]), fakeContext({ tools: fakeTools() }));
  assert.equal(empty.result.isError, true);
  assert.match(textOfResult(empty.result), /did not render a non-empty string/);
});
