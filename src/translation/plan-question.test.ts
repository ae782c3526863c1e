/** @module Tests of what becomes of each question per host revision and capability set. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { JsonObject } from '../protocol/jsonrpc.js';
import { planQuestion } from './plan-question.js';

const form = {
  mode: 'form',
  message: 'Pick',
  requestedSchema: {
    type: 'object',
    properties: { queue: { type: 'string', oneOf: [{ const: 'ops', title: 'Operations' }], default: 'ops' } },
    required: ['queue'],
  },
};
const multi = { message: 'Tags', requestedSchema: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } } } };
const url = { mode: 'url', message: 'Sign in', url: 'https://example.test/x', elicitationId: 'e1' };

const host = (revision: string, capabilities: JsonObject) => ({ revision, capabilities });

test('elicitation: relayed as the host revision needs, refused for this host only (-32601) when it cannot receive it, refused for anyone when it breaks the rules', () => {
  const cases: [string, JsonObject, JsonObject, string][] = [
    ['2025-11-25', { elicitation: {} }, form, 'relay'],
    ['2025-06-18', { elicitation: {} }, form, 'relay'],
    ['2025-03-26', { elicitation: {} }, form, 'refuse'],
    ['2025-11-25', {}, form, 'refuse'],
    ['2025-06-18', { elicitation: {} }, multi, 'refuse'],
    ['2025-11-25', { elicitation: {} }, multi, 'relay'],
    ['2025-11-25', { elicitation: { form: {} } }, url, 'refuse'],
    ['2025-06-18', { elicitation: {} }, url, 'refuse'],
    ['2025-11-25', { elicitation: { form: {}, url: {} } }, url, 'relay'],
  ];
  for (const [revision, capabilities, params, kind] of cases) {
    assert.equal(planQuestion('elicitation/create', params, host(revision, capabilities)).kind, kind, `${revision} ${JSON.stringify(capabilities)} ${JSON.stringify(params).slice(0, 40)}`);
  }
  const downgraded = planQuestion('elicitation/create', form, host('2025-06-18', { elicitation: {} }));
  assert.deepEqual(downgraded, {
    kind: 'relay',
    params: { message: 'Pick', requestedSchema: { type: 'object', properties: { queue: { type: 'string', enum: ['ops'], enumNames: ['Operations'] } }, required: ['queue'] } },
    requestedSchema: { type: 'object', properties: { queue: { type: 'string', enum: ['ops'], enumNames: ['Operations'] } }, required: ['queue'] },
    upstreamSchema: form.requestedSchema,
  });
  const asIs = planQuestion('elicitation/create', form, host('2025-11-25', { elicitation: {} }));
  assert.equal(asIs.kind === 'relay' && 'upstreamSchema' in asIs, false, 'a 2025-11-25 host answers the upstream schema itself: nothing to fill');
  const noDefaults = { message: 'Pick', requestedSchema: { type: 'object', properties: { queue: { type: 'string', oneOf: [{ const: 'ops', title: 'Operations' }] }, ok: { type: 'boolean', default: true } } } };
  const copied = planQuestion('elicitation/create', noDefaults, host('2025-06-18', { elicitation: {} }));
  assert.equal(copied.kind === 'relay' && copied.requestedSchema !== undefined, true);
  assert.equal(copied.kind === 'relay' && 'upstreamSchema' in copied, false, 'a downgrade that left out no default: nothing to fill, and the answer form is the same');
  const withheld = planQuestion('elicitation/create', multi, host('2025-06-18', { elicitation: {} }));
  assert.equal(withheld.kind === 'refuse' && withheld.hostCannot, true, 'someone else may still answer it');
  assert.equal(withheld.kind === 'refuse' && withheld.error.code, -32601);
  assert.match(withheld.kind === 'refuse' ? withheld.error.message : '', /multi-select/);
});

test('a requestedSchema that is not a flat primitive form is refused with -32602 naming the path, whoever the host is', () => {
  const nested = { message: 'Where?', requestedSchema: { type: 'object', properties: { address: { type: 'object', properties: { street: { type: 'string' } } } } } };
  const hosts = [host('2025-11-25', { elicitation: { form: {}, url: {} } }), host('2025-06-18', { elicitation: {} }), host('2025-03-26', {}), host('2025-11-25', {})];
  for (const profile of hosts) {
    assert.deepEqual(planQuestion('elicitation/create', nested, profile), {
      kind: 'refuse',
      error: {
        code: -32602,
        message: 'Elicitation refused: requestedSchema.properties.address is a nested object; elicitation forms are flat (primitive properties only)',
        data: { path: 'requestedSchema.properties.address' },
      },
    }, profile.revision);
  }
  const free = { message: 'Tags', requestedSchema: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } } };
  const refused = planQuestion('elicitation/create', free, host('2025-11-25', { elicitation: {} }));
  assert.match(refused.kind === 'refuse' ? refused.error.message : '', /^Elicitation refused: requestedSchema\.properties\.tags is an array that is not a multi-select/);
});

test('an elicitation over the size limit never reaches the host', () => {
  const huge = { message: 'x', requestedSchema: { type: 'object', properties: { a: { type: 'string', description: 'x'.repeat(200_000) } } } };
  const plan = planQuestion('elicitation/create', huge, host('2025-11-25', { elicitation: {} }));
  assert.equal(plan.kind, 'refuse');
  assert.match(plan.kind === 'refuse' ? plan.error.message : '', /limit/);
});

test('sampling: tools only to hosts that can run them, includeContext scoped to none without sampling.context', () => {
  const withTools = { messages: [], maxTokens: 10, tools: [{ name: 't', inputSchema: { type: 'object' } }] };
  assert.equal(planQuestion('sampling/createMessage', withTools, host('2025-11-25', { sampling: { tools: {} } })).kind, 'relay');
  assert.equal(planQuestion('sampling/createMessage', withTools, host('2025-11-25', { sampling: {} })).kind, 'refuse');
  assert.equal(planQuestion('sampling/createMessage', withTools, host('2025-06-18', { sampling: { tools: {} } })).kind, 'refuse');
  const context = { messages: [], maxTokens: 10, includeContext: 'thisServer' };
  const scoped = planQuestion('sampling/createMessage', context, host('2025-06-18', { sampling: {} }));
  assert.deepEqual(scoped.kind === 'relay' && scoped.params.includeContext, 'none');
  const kept = planQuestion('sampling/createMessage', context, host('2025-11-25', { sampling: { context: {} } }));
  assert.deepEqual(kept.kind === 'relay' && kept.params.includeContext, 'thisServer');
  assert.equal(planQuestion('sampling/createMessage', { messages: [], maxTokens: 1 }, host('2025-11-25', {})).kind, 'refuse');
});

test('roots and ping', () => {
  assert.equal(planQuestion('roots/list', {}, host('2024-11-05', { roots: {} })).kind, 'relay');
  assert.equal(planQuestion('roots/list', {}, host('2025-11-25', {})).kind, 'refuse');
  assert.equal(planQuestion('ping', {}, host('2025-11-25', {})).kind, 'relay');
  assert.equal(planQuestion('tasks/get', {}, host('2025-11-25', {})).kind, 'refuse');
});
