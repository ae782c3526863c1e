/** @module Keeps docs/translation.md in step with the code, and pins a few cells of the table it shows. */

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { planQuestion } from '../src/translation/plan-question.js';
import { defaultsExample, describePlan, renderTranslationPage, TABLE_HOSTS, translationCells, UPSTREAM_SHAPES } from './translation-table.js';

const DOC = new URL('../docs/translation.md', import.meta.url);

const cell = (shape: string, revision: string): string => {
  const found = translationCells().find((c) => c.shape === shape && c.revision === revision);
  assert.ok(found, `no cell ${shape} × ${revision}`);
  return found.text;
};

test('docs/translation.md is exactly what the code renders now (run `npm run gen:translation` after a change)', () => {
  assert.equal(readFileSync(DOC, 'utf8'), renderTranslationPage());
});

test('the table covers every shape × every revision the gateway speaks', () => {
  assert.deepEqual(TABLE_HOSTS.map((h) => h.revision), ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']);
  assert.equal(translationCells().length, UPSTREAM_SHAPES.length * TABLE_HOSTS.length);
  assert.equal(new Set(UPSTREAM_SHAPES.map((s) => s.id)).size, UPSTREAM_SHAPES.length);
});

test('a titled oneOf reaches a 2025-06-18 host as enum+enumNames, without its default', () => {
  assert.equal(cell('one-of', '2025-06-18'), '`oneOf` → `enum`+`enumNames`, `default` dropped');
  const plan = planQuestion('elicitation/create', UPSTREAM_SHAPES.find((s) => s.id === 'one-of')?.params ?? {}, { revision: '2025-06-18', capabilities: { elicitation: {} } });
  assert.equal(plan.kind, 'relay');
  assert.deepEqual(plan.kind === 'relay' ? plan.requestedSchema?.properties : undefined, {
    field: { type: 'string', title: 'Queue', enum: ['ops', 'dev'], enumNames: ['Operations', 'Development'] },
  });
});

test('a multi-select is not sent to a 2025-06-18 host: an operator, or -32601 to the upstream', () => {
  for (const shape of ['multi-select', 'titled-multi-select']) {
    assert.match(cell(shape, '2025-06-18'), /^not sent to this host; an operator may answer, else the upstream gets -32601: Cannot relay elicitation\/create: property "field" is a multi-select/);
  }
});

const valid = UPSTREAM_SHAPES.filter((shape) => !shape.id.startsWith('invalid-'));

test('a 2025-11-25 host with every capability receives every valid shape unchanged', () => {
  for (const shape of valid) assert.equal(cell(shape.id, '2025-11-25'), 'unchanged', shape.id);
});

test('no valid elicitation is sent to a 2025-03-26 host: an operator, or -32601 to the upstream', () => {
  for (const shape of valid.filter((s) => s.method === 'elicitation/create')) {
    assert.match(cell(shape.id, '2025-03-26'), /^not sent to this host; an operator may answer, else the upstream gets -32601: /, shape.id);
  }
});

test('a form that is not flat is refused with -32602 naming the property, for every revision', () => {
  const invalid = UPSTREAM_SHAPES.filter((shape) => shape.id.startsWith('invalid-'));
  assert.equal(invalid.length, 2);
  for (const shape of invalid) {
    for (const host of TABLE_HOSTS) assert.match(cell(shape.id, host.revision), /^refused \(-32602\): Elicitation refused: requestedSchema\.properties\.field (is a nested object|is an array that is not a multi-select)/, `${shape.id} ${host.revision}`);
  }
});

test('the defaults example of the notes is what the gateway does: hidden defaults filled, the seen boolean one not', () => {
  const example = defaultsExample();
  assert.deepEqual(example.sent, {
    message: 'File it?',
    requestedSchema: { type: 'object', properties: { ticket: { type: 'string' }, owner: { type: 'string' }, notify: { type: 'boolean', default: true } }, required: ['ticket'] },
  });
  assert.deepEqual(example.upstreamGets, { action: 'accept', content: { ticket: 'CHG-1', owner: 'Ada' } });
});

test('the describer reports what the plan did, not what it was told', () => {
  const sent = { a: 1, keep: { x: 1 }, list: [{ v: 'p', t: 'P' }] };
  assert.equal(describePlan(sent, { kind: 'relay', params: { a: 1, keep: { x: 1 }, list: [{ v: 'p', t: 'P' }] } }), 'unchanged');
  assert.equal(describePlan(sent, { kind: 'relay', params: { a: 2, keep: { x: 1, y: true }, vs: ['p'] } }), '`list` → `vs`, `a` `1` → `2`, `keep.y` `true` added');
  assert.equal(describePlan(sent, { kind: 'refuse', error: { code: -32602, message: 'no' } }), 'refused (-32602): no');
  assert.equal(describePlan(sent, { kind: 'refuse', error: { code: -32601, message: 'no' }, hostCannot: true }), 'not sent to this host; an operator may answer, else the upstream gets -32601: no');
});
