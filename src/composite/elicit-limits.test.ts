/** The limits every elicitation path has, applied by the composer before it asks and to what comes back, all through the seam. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ELICIT_TIMEOUT_CAP_MS } from './definition.js';
import { effectiveElicitTimeout } from './elicit-step.js';
import { runComposite } from './runner.js';
import { composite, elicitStep, fakeAsker, fakeContext, fakeTools, stepOf, textOfResult, toolStep } from './testing/fakes.js';

function deepSchemaProperty(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < levels; i++) value = { nested: value };
  return { type: 'string', 'x-extra': value };
}

test('a requested schema over 100 KB fails the step without asking (templated from the input)', async () => {
  const asker = fakeAsker(() => Promise.resolve({ action: 'accept', content: {} }));
  const tools = fakeTools();
  const definition = composite([
    elicitStep('approve', { requestedSchema: { type: 'object', properties: { note: { type: 'string', description: '{{ input.big }}' } } } }),
    toolStep('restart', { dependsOn: ['approve'] }),
  ]);
  const { record, result } = await runComposite(definition, fakeContext({ asker, tools, input: { big: 'x'.repeat(101 * 1024) } }));
  assert.equal(asker.asked.length, 0, 'nobody is asked');
  assert.equal(tools.calls.length, 0);
  assert.equal(result.isError, true);
  assert.match(textOfResult(result), /step "approve": its question breaks a limit: requestedSchema is \d+ bytes, over the 102400-byte limit/);
  assert.equal(stepOf(record, 'approve').state, 'failed');
  assert.equal(record.state, 'failed');
});

test('a requested schema deeper than 10 levels fails the step without asking', async () => {
  const asker = fakeAsker(() => Promise.resolve({ action: 'accept', content: {} }));
  const definition = composite([elicitStep('approve', { requestedSchema: { type: 'object', properties: { note: deepSchemaProperty(10) } } })]);
  const { result } = await runComposite(definition, fakeContext({ asker }));
  assert.equal(asker.asked.length, 0);
  assert.equal(result.isError, true);
  assert.match(textOfResult(result), /requestedSchema is nested deeper than the 10-level limit/);
});

test('a requested schema that is not a flat form fails the step without asking', async () => {
  const asker = fakeAsker(() => Promise.resolve({ action: 'accept', content: {} }));
  const definition = composite([elicitStep('approve', { requestedSchema: { type: 'object', properties: { address: { type: 'object', properties: {} } } } })]);
  const { result } = await runComposite(definition, fakeContext({ asker }));
  assert.equal(asker.asked.length, 0);
  assert.match(textOfResult(result), /not a valid form: requestedSchema\.properties\.address is a nested object/);
});

test('an answer over 1 MB fails the step and runs nothing after it', async () => {
  const asker = fakeAsker(() => Promise.resolve({ action: 'accept', content: { confirm: true, ticket: 'y'.repeat(1024 * 1024 + 1) } }));
  const tools = fakeTools();
  const definition = composite([elicitStep('approve'), toolStep('restart', { dependsOn: ['approve'] })]);
  const { record, result } = await runComposite(definition, fakeContext({ asker, tools }));
  assert.equal(asker.asked.length, 1);
  assert.equal(tools.calls.length, 0);
  assert.equal(result.isError, true);
  assert.match(textOfResult(result), /step "approve": its answer breaks a limit: content is \d+ bytes, over the 1048576-byte limit/);
  assert.equal(stepOf(record, 'approve').answer, undefined, 'an oversized answer is not recorded');
});

test('an answer deeper than 10 levels fails the step', async () => {
  let deep: unknown = 'x';
  for (let i = 0; i < 11; i++) deep = [deep];
  const asker = fakeAsker(() => Promise.resolve({ action: 'accept', content: { confirm: true, ticket: deep } as Record<string, unknown> }));
  const { result } = await runComposite(composite([elicitStep('approve')]), fakeContext({ asker }));
  assert.match(textOfResult(result), /content is nested deeper than the 10-level limit/);
});

test('an answer that does not fit the schema fails the step', async () => {
  const asker = fakeAsker(() => Promise.resolve({ action: 'accept', content: { confirm: 'yes' } }));
  const { result } = await runComposite(composite([elicitStep('approve')]), fakeContext({ asker }));
  assert.equal(result.isError, true);
  assert.match(textOfResult(result), /its answer does not fit the requested schema: field "confirm": expected a boolean/);
});

test('non-object content on accept is treated as empty content, with a warning', async () => {
  const asker = fakeAsker(() => Promise.resolve({ action: 'accept', content: 'yes please' as unknown as Record<string, unknown> }));
  const tools = fakeTools();
  const definition = composite([
    elicitStep('approve', { requestedSchema: { type: 'object', properties: { ticket: { type: 'string' } } } }),
    toolStep('restart', { dependsOn: ['approve'], arguments: { content: '{{ steps.approve.content }}' } }),
  ]);
  const context = fakeContext({ asker, tools });
  const { record, result } = await runComposite(definition, context);
  assert.equal(result.isError, undefined);
  assert.deepEqual(tools.calls[0]?.args, { content: {} });
  assert.deepEqual(stepOf(record, 'approve').answer, {});
  assert.ok(context.logger.lines.some((line) => line.level === 'warn' && /not an object; treating it as empty content/.test(line.message)));

  // Empty content against a schema with required fields does not pass.
  const strict = await runComposite(composite([elicitStep('approve')]), fakeContext({ asker }));
  assert.match(textOfResult(strict.result), /field "confirm": required/);
});

test('a timeout above the cap is cut to the cap, with a logged warning, before asking', async () => {
  const asker = fakeAsker(() => Promise.resolve({ action: 'accept', content: { confirm: true } }));
  const definition = composite([elicitStep('approve', { timeoutMs: ELICIT_TIMEOUT_CAP_MS + 1 })]);
  const context = fakeContext({ asker });
  const { result } = await runComposite(definition, context);
  assert.equal(result.isError, undefined);
  assert.equal(asker.asked[0]?.timeoutMs, ELICIT_TIMEOUT_CAP_MS, 'the requester is given the cap');
  const warning = context.logger.lines.find((line) => line.level === 'warn' && /cap/.test(line.message));
  assert.ok(warning, 'the cap is logged as a warning');
  assert.equal(warning.fields?.requestedMs, ELICIT_TIMEOUT_CAP_MS + 1);
  assert.equal(warning.fields?.cappedMs, ELICIT_TIMEOUT_CAP_MS);
  assert.equal(warning.fields?.step, 'approve');

  // At the cap or under it: no warning, the step's own timeout.
  const under = fakeContext({ asker });
  await runComposite(composite([elicitStep('approve', { timeoutMs: ELICIT_TIMEOUT_CAP_MS })]), under);
  assert.equal(asker.asked[1]?.timeoutMs, ELICIT_TIMEOUT_CAP_MS);
  assert.equal(under.logger.lines.filter((line) => line.level === 'warn').length, 0);
});

test('effectiveElicitTimeout', () => {
  assert.deepEqual(effectiveElicitTimeout(1000), { timeoutMs: 1000, capped: false });
  assert.deepEqual(effectiveElicitTimeout(ELICIT_TIMEOUT_CAP_MS * 2), { timeoutMs: ELICIT_TIMEOUT_CAP_MS, capped: true });
  assert.deepEqual(effectiveElicitTimeout(Number.POSITIVE_INFINITY), { timeoutMs: ELICIT_TIMEOUT_CAP_MS, capped: true });
});

test('a requester that cannot ask anybody fails the step with its reason', async () => {
  const asker = fakeAsker(() => Promise.reject(new Error('no host can elicit and no operator route')));
  const { record, result } = await runComposite(composite([elicitStep('approve')]), fakeContext({ asker }));
  assert.equal(result.isError, true);
  assert.match(textOfResult(result), /the question could not be asked: no host can elicit and no operator route/);
  assert.equal(stepOf(record, 'approve').state, 'failed');
});

test('an answer with an unknown action fails the step', async () => {
  const asker = fakeAsker(() => Promise.resolve({ action: 'maybe' } as never));
  const { result } = await runComposite(composite([elicitStep('approve')]), fakeContext({ asker }));
  assert.match(textOfResult(result), /no valid action/);
});
