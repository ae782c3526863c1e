/** @module The console's schema → form model: field descriptors from a requestedSchema, and answer content from form values. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { contentFromForm, fieldOfErrorPath, fieldsFromSchema, fromLocalDateTimeInput, toLocalDateTimeInput } from './assets/form-model.js';
import type { FieldDescriptor } from './assets/form-model.js';

const SCHEMA = {
  type: 'object',
  properties: {
    ticket: { type: 'string', title: 'Change ticket', description: 'CHG-…', minLength: 5, maxLength: 12, default: 'CHG-' },
    email: { type: 'string', format: 'email' },
    runbook: { type: 'string', format: 'uri' },
    day: { type: 'string', format: 'date', default: '2025-06-01' },
    at: { type: 'string', format: 'date-time' },
    replicas: { type: 'integer', minimum: 1, maximum: 9, default: 3 },
    ratio: { type: 'number', minimum: 0, maximum: 1 },
    confirm: { type: 'boolean', title: 'Confirm', default: true },
    notify: { type: 'boolean' },
    env: { type: 'string', enum: ['prod', 'staging'], enumNames: ['Production', 'Staging'], default: 'staging' },
    plain: { type: 'string', enum: ['a', 'b'] },
    tier: { type: 'string', oneOf: [{ const: 'gold', title: 'Gold tier' }, { const: 'free', title: 'Free tier' }] },
    regions: { type: 'array', items: { type: 'string', enum: ['eu', 'us', 'ap'] }, minItems: 1, maxItems: 2, default: ['eu', 'mars'] },
    teams: { type: 'array', items: { anyOf: [{ const: 'sre', title: 'SRE' }, { const: 'db', title: 'Databases' }] } },
  },
  required: ['ticket', 'replicas', 'confirm', 'env', 'regions'],
};

const fields = fieldsFromSchema(SCHEMA);
const byName = (name: string): FieldDescriptor => {
  const field = fields.find((f) => f.name === name);
  assert.ok(field, name);
  return field;
};

describe('fieldsFromSchema', () => {
  it('keeps the properties in order, with labels, help text and required marks', () => {
    assert.deepEqual(fields.map((f) => f.name), Object.keys(SCHEMA.properties));
    assert.deepEqual(fields.filter((f) => f.required).map((f) => f.name), SCHEMA.required);
    assert.equal(byName('ticket').label, 'Change ticket');
    assert.equal(byName('ticket').description, 'CHG-…');
    assert.equal(byName('email').label, 'email');
    assert.equal(byName('email').description, undefined);
  });

  it('turns strings into text inputs by format, with their length limits and defaults', () => {
    assert.deepEqual(byName('ticket'), { name: 'ticket', label: 'Change ticket', description: 'CHG-…', required: true, kind: 'text', inputType: 'text', minLength: 5, maxLength: 12, initial: 'CHG-' });
    assert.deepEqual(
      ['email', 'runbook', 'day', 'at'].map((name) => byName(name).inputType),
      ['email', 'url', 'date', 'datetime-local'],
    );
    assert.equal(byName('day').initial, '2025-06-01');
    assert.equal(byName('at').initial, '');
  });

  it('turns numbers and integers into number inputs with min, max and step', () => {
    assert.deepEqual(byName('replicas'), { name: 'replicas', label: 'replicas', required: true, kind: 'number', integer: true, step: '1', min: 1, max: 9, initial: '3' });
    assert.deepEqual(byName('ratio'), { name: 'ratio', label: 'ratio', required: false, kind: 'number', integer: false, step: 'any', min: 0, max: 1, initial: '' });
  });

  it('turns booleans into checkboxes, checked by a true default', () => {
    assert.equal(byName('confirm').kind, 'checkbox');
    assert.equal(byName('confirm').initial, true);
    assert.equal(byName('notify').initial, false);
  });

  it('turns enum, enum + enumNames and oneOf const/title into selects with titled options', () => {
    assert.deepEqual(byName('env').options, [
      { value: 'prod', label: 'Production' },
      { value: 'staging', label: 'Staging' },
    ]);
    assert.equal(byName('env').kind, 'select');
    assert.equal(byName('env').initial, 'staging');
    assert.deepEqual(byName('plain').options, [
      { value: 'a', label: 'a' },
      { value: 'b', label: 'b' },
    ]);
    assert.deepEqual(byName('tier').options, [
      { value: 'gold', label: 'Gold tier' },
      { value: 'free', label: 'Free tier' },
    ]);
    assert.equal(byName('tier').initial, '');
  });

  it('turns arrays of items.enum or items.anyOf into multi-selects, keeping only known defaults', () => {
    assert.deepEqual(byName('regions'), {
      name: 'regions',
      label: 'regions',
      required: true,
      kind: 'multiselect',
      options: [
        { value: 'eu', label: 'eu' },
        { value: 'us', label: 'us' },
        { value: 'ap', label: 'ap' },
      ],
      minItems: 1,
      maxItems: 2,
      initial: ['eu'],
    });
    assert.deepEqual(byName('teams').options, [
      { value: 'sre', label: 'SRE' },
      { value: 'db', label: 'Databases' },
    ]);
  });

  it('edits a shape the spec does not define as JSON instead of hiding it, and reads no fields from a non-schema', () => {
    const [odd] = fieldsFromSchema({ type: 'object', properties: { blob: { type: 'object', default: { a: 1 } } } });
    assert.equal(odd?.kind, 'json');
    assert.equal(odd?.initial, '{"a":1}');
    assert.deepEqual(fieldsFromSchema(undefined), []);
    assert.deepEqual(fieldsFromSchema({ type: 'object' }), []);
  });
});

describe('contentFromForm', () => {
  const filled = {
    ticket: 'CHG-2291',
    email: '',
    runbook: '',
    day: '2025-06-01',
    at: '',
    replicas: '4',
    ratio: '0.25',
    confirm: true,
    notify: false,
    env: 'prod',
    plain: '',
    tier: 'gold',
    regions: ['eu', 'ap'],
    teams: [],
  };

  it('parses numbers, keeps booleans and multi-select arrays, and leaves empty optional fields out', () => {
    assert.deepEqual(contentFromForm(fields, filled), {
      ok: true,
      content: { ticket: 'CHG-2291', day: '2025-06-01', replicas: 4, ratio: 0.25, confirm: true, notify: false, env: 'prod', tier: 'gold', regions: ['eu', 'ap'] },
    });
  });

  it('names every field that is wrong, with its label', () => {
    const result = contentFromForm(fields, {
      ...filled,
      ticket: 'CHG',
      email: 'not-an-address',
      runbook: 'nowhere',
      replicas: '2.5',
      ratio: '2',
      env: '',
      plain: 'c',
      regions: ['eu', 'us', 'ap'],
    });
    assert.deepEqual(result, {
      ok: false,
      errors: [
        { field: 'ticket', message: 'Change ticket must be at least 5 characters' },
        { field: 'email', message: 'email must be an email address' },
        { field: 'runbook', message: 'runbook must be a full URL, such as https://example.com/' },
        { field: 'replicas', message: 'replicas must be a whole number' },
        { field: 'ratio', message: 'ratio must be at most 1' },
        { field: 'env', message: 'env is required' },
        { field: 'plain', message: 'plain must be one of the choices' },
        { field: 'regions', message: 'regions choose at most 2' },
      ],
    });
  });

  it('checks lengths in characters, not UTF-16 units, and numbers against their bounds', () => {
    const [name] = fieldsFromSchema({ type: 'object', properties: { name: { type: 'string', maxLength: 2 } } });
    assert.ok(name);
    assert.deepEqual(contentFromForm([name], { name: '😀😀' }), { ok: true, content: { name: '😀😀' } });
    assert.equal(contentFromForm(fields, { ...filled, replicas: '0' }).ok, false);
    assert.equal(contentFromForm(fields, { ...filled, replicas: 'x' }).ok, false);
  });

  it('sends an empty required multi-select as [] but refuses it under minItems', () => {
    const [tags] = fieldsFromSchema({ type: 'object', properties: { tags: { type: 'array', items: { type: 'string', enum: ['a'] } } }, required: ['tags'] });
    assert.ok(tags);
    assert.deepEqual(contentFromForm([tags], { tags: [] }), { ok: true, content: { tags: [] } });
    assert.deepEqual(contentFromForm(fields, { ...filled, regions: [] }), { ok: false, errors: [{ field: 'regions', message: 'regions choose at least 1' }] });
  });

  it('drops multi-select values that are not among the choices', () => {
    const result = contentFromForm(fields, { ...filled, regions: ['eu', 'mars'] });
    assert.deepEqual(result.ok && result.content.regions, ['eu']);
  });

  it('sends a date-time with the operator\'s offset, the same instant as the local input', () => {
    const result = contentFromForm(fields, { ...filled, at: '2025-06-01T14:30' });
    assert.ok(result.ok);
    const at = String(result.content.at);
    assert.match(at, /^2025-06-01T14:30:00[+-]\d{2}:\d{2}$/);
    assert.equal(Date.parse(at), new Date(2025, 5, 1, 14, 30, 0).getTime());
    assert.equal(toLocalDateTimeInput(at), '2025-06-01T14:30:00');
    assert.equal(fromLocalDateTimeInput('tomorrow'), undefined);
    assert.equal(toLocalDateTimeInput('not a time'), '');
  });

  it('parses a JSON field and refuses bad JSON', () => {
    const [blob] = fieldsFromSchema({ type: 'object', properties: { blob: { type: 'object' } } });
    assert.ok(blob);
    assert.deepEqual(contentFromForm([blob], { blob: '{"a":[1]}' }), { ok: true, content: { blob: { a: [1] } } });
    assert.deepEqual(contentFromForm([blob], { blob: '{' }), { ok: false, errors: [{ field: 'blob', message: 'blob must be JSON' }] });
  });
});

describe('fieldOfErrorPath', () => {
  const some = fieldsFromSchema({ type: 'object', properties: { ticket: { type: 'string' }, 'first name': { type: 'string' }, content: { type: 'string' } } });
  const cases: [string | undefined, string | undefined][] = [
    ['content.ticket', 'ticket'],
    ['ticket', 'ticket'],
    ['content["first name"]', 'first name'],
    ['requestedSchema.properties.ticket', 'ticket'],
    ['content.content', 'content'],
    ['content.missing', undefined],
    ['action', undefined],
    [undefined, undefined],
  ];
  for (const [path, field] of cases) {
    it(`maps ${String(path)} to ${String(field)}`, () => assert.equal(fieldOfErrorPath(some, path), field));
  }
});
