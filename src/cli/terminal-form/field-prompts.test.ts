/** @module Schema → terminal prompts, and typed text → value or error, table-driven. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { FieldPrompt } from './field-prompts.js';
import { answerField, fieldFromProperty, fieldHint, fieldLines, fieldsFromSchema, parseFieldValue, promptText } from './field-prompts.js';

const SCHEMA = {
  type: 'object',
  properties: {
    ticket: { type: 'string', title: 'Change ticket', description: 'e.g. CHG-2291', minLength: 3, maxLength: 12 },
    email: { type: 'string', format: 'email' },
    day: { type: 'string', format: 'date' },
    replicas: { type: 'integer', minimum: 1, maximum: 5, default: 2 },
    ratio: { type: 'number', maximum: 1 },
    confirm: { type: 'boolean' },
    notify: { type: 'boolean', default: true },
    severity: { type: 'string', oneOf: [{ const: 'low', title: 'Low' }, { const: 'high', title: 'High' }], default: 'high' },
    region: { type: 'string', enum: ['eu', 'us'], enumNames: ['Europe', 'America'] },
    plain: { type: 'string', enum: ['1', '2', '3'] },
    teams: { type: 'array', items: { anyOf: [{ const: 'db', title: 'Database' }, { const: 'net', title: 'Network' }, { const: 'app', title: 'Application' }] }, minItems: 1, maxItems: 2 },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, default: ['b'] },
  },
  required: ['ticket', 'confirm', 'teams'],
};

const fields = fieldsFromSchema(SCHEMA);
function field(name: string): FieldPrompt {
  const found = fields.find((f) => f.name === name);
  assert.ok(found, name);
  return found;
}

describe('fieldsFromSchema', () => {
  it('keeps the order of the properties and reads kind, required, label, choices, bounds and default', () => {
    assert.deepEqual(
      fields.map((f) => [f.name, f.kind, f.required]),
      [
        ['ticket', 'text', true],
        ['email', 'text', false],
        ['day', 'text', false],
        ['replicas', 'integer', false],
        ['ratio', 'number', false],
        ['confirm', 'boolean', true],
        ['notify', 'boolean', false],
        ['severity', 'choice', false],
        ['region', 'choice', false],
        ['plain', 'choice', false],
        ['teams', 'multi', true],
        ['tags', 'multi', false],
      ],
    );
    assert.equal(field('ticket').label, 'Change ticket');
    assert.equal(field('email').label, 'email');
    assert.deepEqual(field('region').choices, [
      { value: 'eu', title: 'Europe' },
      { value: 'us', title: 'America' },
    ]);
    assert.deepEqual(field('teams').choices?.map((c) => c.title), ['Database', 'Network', 'Application']);
    assert.deepEqual(field('tags').choices, [
      { value: 'a', title: 'a' },
      { value: 'b', title: 'b' },
    ]);
    assert.equal(field('replicas').minimum, 1);
    assert.equal(field('replicas').default, 2);
  });

  it('gives no fields for something that is not an object schema', () => {
    assert.deepEqual(fieldsFromSchema(undefined), []);
    assert.deepEqual(fieldsFromSchema({ type: 'object' }), []);
  });
});

describe('what a field shows', () => {
  const hints: [string, string][] = [
    ['ticket', 'text, 3 to 12 characters, required'],
    ['email', 'an email address'],
    ['day', 'a date, YYYY-MM-DD'],
    ['replicas', 'whole number, 1 to 5'],
    ['ratio', 'number, at most 1'],
    ['confirm', 'yes/no, required'],
    ['severity', 'one choice'],
    ['teams', 'choices separated by commas, 1 to 2 choices, required'],
  ];
  for (const [name, hint] of hints) {
    it(`${name}: "${hint}"`, () => assert.equal(fieldHint(field(name)), hint));
  }

  it('lists choices numbered, marking the default, under the label and description', () => {
    assert.deepEqual(fieldLines(field('severity')), ['severity [one choice]', '  1) Low', '  2) High (default)']);
    assert.deepEqual(fieldLines(field('ticket')), ['Change ticket [text, 3 to 12 characters, required]', '  e.g. CHG-2291']);
    assert.deepEqual(fieldLines(field('tags')), ['tags [choices separated by commas]', '  1) a', '  2) b (default)']);
  });

  const prompts: [string, string][] = [
    ['confirm', '[y/n] > '],
    ['notify', '[Y/n] > '],
    ['ticket', '> '],
    ['replicas', '[default: 2] > '],
    ['severity', '[default: High] > '],
    ['tags', '[default: b] > '],
  ];
  for (const [name, prompt] of prompts) {
    it(`${name} prompts "${prompt}"`, () => assert.equal(promptText(field(name)), prompt));
  }
  it('a boolean defaulting to false prompts [y/N]', () => {
    assert.equal(promptText(fieldFromProperty('x', { type: 'boolean', default: false }, false)), '[y/N] > ');
  });
});

describe('answerField: one typed line → value, left out, or error', () => {
  const cases: [field: string, input: string, expected: { value: unknown } | { error: RegExp }][] = [
    // text
    ['ticket', 'CHG-2291', { value: 'CHG-2291' }],
    ['ticket', '  CHG-2291  ', { value: 'CHG-2291' }],
    ['ticket', '', { error: /^required: type a value$/ }],
    ['ticket', 'AB', { error: /at least 3 characters/ }],
    ['ticket', 'ABCDEFGHIJKLM', { error: /at most 12 characters/ }],
    ['email', '', { value: undefined }],
    ['email', 'ada@example.org', { value: 'ada@example.org' }],
    ['email', 'not an email', { error: /valid email/ }],
    ['day', '2024-02-29', { value: '2024-02-29' }],
    ['day', '2023-02-29', { error: /valid date/ }],
    // numbers
    ['replicas', '', { value: 2 }],
    ['replicas', '3', { value: 3 }],
    ['replicas', '+4', { value: 4 }],
    ['replicas', '2.5', { error: /integer/ }],
    ['replicas', '9', { error: /at most 5/ }],
    ['replicas', '0', { error: /at least 1/ }],
    ['replicas', 'three', { error: /whole number/ }],
    ['ratio', '0.25', { value: 0.25 }],
    ['ratio', '.5', { value: 0.5 }],
    ['ratio', '1e-1', { value: 0.1 }],
    ['ratio', '2', { error: /at most 1/ }],
    ['ratio', 'NaN', { error: /expected a number/ }],
    ['ratio', '0x10', { error: /expected a number/ }],
    // booleans
    ['confirm', 'y', { value: true }],
    ['confirm', 'YES', { value: true }],
    ['confirm', 'true', { value: true }],
    ['confirm', 'n', { value: false }],
    ['confirm', 'No', { value: false }],
    ['confirm', '', { error: /required: answer y or n/ }],
    ['confirm', 'maybe', { error: /answer y or n/ }],
    ['notify', '', { value: true }],
    // single select
    ['severity', '1', { value: 'low' }],
    ['severity', 'high', { value: 'high' }],
    ['severity', 'LOW', { value: 'low' }],
    ['severity', '', { value: 'high' }],
    ['severity', '3', { error: /not one of the choices: type a number from 1 to 2/ }],
    ['severity', 'medium', { error: /"medium" is not one of the choices/ }],
    ['region', 'America', { value: 'us' }],
    ['region', '2', { value: 'us' }],
    ['region', '', { value: undefined }],
    // an exact value wins over a position
    ['plain', '3', { value: '3' }],
    // multi-select
    ['teams', '1,3', { value: ['db', 'app'] }],
    ['teams', ' net , Database ', { value: ['net', 'db'] }],
    ['teams', '1,1', { value: ['db'] }],
    ['teams', '1,2,3', { error: /at most 2 items/ }],
    ['teams', '', { error: /required/ }],
    ['teams', '1,9', { error: /"9" is not one of the choices/ }],
    ['tags', '', { value: ['b'] }],
    ['tags', 'a', { value: ['a'] }],
  ];
  for (const [name, input, expected] of cases) {
    it(`${name} ← ${JSON.stringify(input)}`, () => {
      const answer = answerField(field(name), input);
      if ('value' in expected) assert.deepEqual(answer, { ok: true, value: expected.value });
      else {
        assert.equal(answer.ok, false, JSON.stringify(answer));
        if (!answer.ok) assert.match(answer.error, expected.error);
      }
    });
  }

  it('never takes a default that breaks the field\'s own schema', () => {
    const bad = fieldFromProperty('n', { type: 'integer', minimum: 5, default: 1 }, false);
    const answer = answerField(bad, '');
    assert.equal(answer.ok, false);
    if (!answer.ok) assert.match(answer.error, /the default does not fit: expected a value of at least 5/);
  });
});

describe('parseFieldValue (the --field reading): empty is literal', () => {
  it('an empty text is the empty string; an empty multi-select is no choices; an empty number is an error', () => {
    assert.deepEqual(parseFieldValue(field('email'), ''), { ok: false, error: 'expected a valid email' });
    assert.deepEqual(parseFieldValue(fieldFromProperty('note', { type: 'string' }, false), ''), { ok: true, value: '' });
    assert.deepEqual(parseFieldValue(field('tags'), ''), { ok: true, value: [] });
    assert.deepEqual(parseFieldValue(field('teams'), ''), { ok: false, error: 'expected at least 1 items' });
    assert.deepEqual(parseFieldValue(field('replicas'), ''), { ok: false, error: 'expected a whole number' });
  });

  it('keeps the spaces of a text value', () => {
    assert.deepEqual(parseFieldValue(fieldFromProperty('note', { type: 'string' }, false), ' two words '), { ok: true, value: ' two words ' });
  });
});
