/** @module Tests of the elicitation/create downgrade: every shape against every legacy host revision, plus a schema.json cross-check. */

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import type { JsonObject } from '../protocol/jsonrpc.js';
import { answerFormOf } from './elicitation-answer.js';
import { translateElicitation } from './elicitation-downgrade.js';
import { planQuestion } from './plan-question.js';

const HOSTS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;

/** Wraps one property schema in a 2025-11-25 form request. */
function form(property: JsonObject): JsonObject {
  return { message: 'Tell me', requestedSchema: { type: 'object', properties: { p: property }, required: ['p'] } };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

const TITLED_ONE_OF = {
  type: 'string',
  title: 'Colour',
  oneOf: [
    { const: 'r', title: 'Red' },
    { const: 'g', title: 'Green' },
    { const: 'b', title: 'Blue' },
  ],
  default: 'g',
  description: 'Pick one',
};

const URL_MODE: JsonObject = { mode: 'url', elicitationId: 'e-7f3a', url: 'https://gw.example.net/connect/e-7f3a', message: 'Connect your Jira account' };

const FORM_WITH_EXTRAS: JsonObject = {
  mode: 'form',
  elicitationId: 'e-1',
  message: 'Tell me',
  requestedSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
};

/** Expected outcome for a 2025-06-18 host: the params it receives, or a pattern its refusal reason matches. */
type Expected = { send: JsonObject } | { unsendable: RegExp };

const SHAPES: { name: string; params: JsonObject; at20250618: Expected }[] = [
  { name: 'string without default', params: form({ type: 'string', title: 'Name', minLength: 1, maxLength: 20 }), at20250618: { send: form({ type: 'string', title: 'Name', minLength: 1, maxLength: 20 }) } },
  { name: 'string with default', params: form({ type: 'string', format: 'email', default: 'a@b.c' }), at20250618: { send: form({ type: 'string', format: 'email' }) } },
  { name: 'number with default', params: form({ type: 'number', minimum: 0, default: 2.5 }), at20250618: { send: form({ type: 'number', minimum: 0 }) } },
  { name: 'integer with default', params: form({ type: 'integer', maximum: 9, default: 3 }), at20250618: { send: form({ type: 'integer', maximum: 9 }) } },
  { name: 'boolean with default (kept)', params: form({ type: 'boolean', title: 'OK?', default: true }), at20250618: { send: form({ type: 'boolean', title: 'OK?', default: true }) } },
  { name: 'untitled single-select (enum)', params: form({ type: 'string', enum: ['a', 'b'], default: 'a' }), at20250618: { send: form({ type: 'string', enum: ['a', 'b'] }) } },
  {
    name: 'legacy enum + enumNames',
    params: form({ type: 'string', enum: ['a', 'b'], enumNames: ['A', 'B'], default: 'b' }),
    at20250618: { send: form({ type: 'string', enum: ['a', 'b'], enumNames: ['A', 'B'] }) },
  },
  {
    name: 'titled single-select (oneOf)',
    params: form(TITLED_ONE_OF),
    at20250618: { send: form({ type: 'string', title: 'Colour', enum: ['r', 'g', 'b'], enumNames: ['Red', 'Green', 'Blue'], description: 'Pick one' }) },
  },
  {
    name: 'untitled multi-select',
    params: form({ type: 'array', items: { type: 'string', enum: ['x', 'y'] }, minItems: 1, default: ['x'] }),
    at20250618: { unsendable: /^property "p" is a multi-select, which 2025-06-18 hosts cannot receive$/ },
  },
  {
    name: 'titled multi-select',
    params: form({ type: 'array', items: { anyOf: [{ const: 'x', title: 'X' }] }, maxItems: 1 }),
    at20250618: { unsendable: /^property "p" is a multi-select, which 2025-06-18 hosts cannot receive$/ },
  },
  { name: 'URL mode', params: URL_MODE, at20250618: { unsendable: /^URL-mode elicitation cannot be sent to 2025-06-18 hosts/ } },
  {
    name: 'mode form + elicitationId + $schema',
    params: FORM_WITH_EXTRAS,
    at20250618: { send: { message: 'Tell me', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } } },
  },
];

for (const shape of SHAPES) {
  for (const host of HOSTS) {
    test(`${shape.name} → ${host} host`, () => {
      const snapshot = JSON.stringify(shape.params);
      const result = translateElicitation(deepFreeze(structuredClone(shape.params)), host);
      if (host === '2024-11-05' || host === '2025-03-26') {
        assert.deepEqual(result, { kind: 'unsendable', reason: `elicitation is not available to ${host} hosts (it needs 2025-06-18 or later)` });
      } else if (host === '2025-11-25') {
        assert.equal(result.kind, 'send');
        assert.equal(JSON.stringify(result.kind === 'send' ? result.params : null), snapshot, 'byte-identical for a 2025-11-25 host');
      } else if ('send' in shape.at20250618) {
        // A default is left out of anything but a boolean: the answer then lacks it, which the plan must know.
        const droppedDefaults = JSON.stringify(shape.params).includes('"default"') && !shape.name.startsWith('boolean');
        assert.deepEqual(result, { kind: 'send', params: shape.at20250618.send, droppedDefaults });
      } else {
        assert.equal(result.kind, 'unsendable');
        assert.match(result.kind === 'unsendable' ? result.reason : '', shape.at20250618.unsendable);
      }
      assert.equal(JSON.stringify(shape.params), snapshot, 'input untouched');
    });
  }
}

test('a titled single-select keeps option order and the position of the other keys', () => {
  const result = translateElicitation(form(TITLED_ONE_OF), '2025-06-18');
  assert.equal(result.kind, 'send');
  const p = ((result.kind === 'send' ? result.params.requestedSchema : {}) as { properties: { p: JsonObject } }).properties.p;
  assert.equal(JSON.stringify(p), '{"type":"string","title":"Colour","enum":["r","g","b"],"enumNames":["Red","Green","Blue"],"description":"Pick one"}');
});

test('one multi-select property makes the whole request unsendable, and the reason names it', () => {
  const params: JsonObject = {
    message: 'm',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string', enum: ['a'] } } } },
  };
  assert.deepEqual(translateElicitation(params, '2025-06-18'), {
    kind: 'unsendable',
    reason: 'property "tags" is a multi-select, which 2025-06-18 hosts cannot receive',
  });
});

test('unrepresentable shapes are refused for a 2025-06-18 host, not passed on', () => {
  const cases: [JsonObject, RegExp][] = [
    [form({ type: 'string', oneOf: [{ const: 'a' }] }), /oneOf option that is not \{const: string, title: string\}/],
    [form({ type: 'string', oneOf: 'nope' }), /oneOf that is not an array/],
    [form({ type: 'string', oneOf: [{ const: 'a', title: 'A' }], enum: ['a'] }), /both oneOf and enum/],
    [form({ type: 'array', items: { type: 'string' } }), /^property "p" is an array/],
    [form({ type: 'object', properties: {} }), /^property "p" has type "object"/],
    [form({ title: 'no type' }), /^property "p" has type undefined/],
    [{ message: 'm' }, /without requestedSchema/],
    [{ mode: 'telepathy', message: 'm', requestedSchema: { type: 'object', properties: {} } }, /mode "telepathy" is unknown/],
  ];
  for (const [params, reason] of cases) {
    const result = translateElicitation(params, '2025-06-18');
    assert.equal(result.kind, 'unsendable', JSON.stringify(params));
    assert.match(result.kind === 'unsendable' ? result.reason : '', reason);
  }
});

test('the ill-formed forms the downgrade takes as checked never reach it: planQuestion refuses them for anyone first (-32602)', () => {
  const host = { revision: '2025-06-18', capabilities: { elicitation: {} } };
  const cases: [JsonObject, RegExp][] = [
    [{ message: 'm', requestedSchema: 'nope' }, /^Elicitation refused: requestedSchema must be an object$/],
    [{ message: 'm', requestedSchema: { type: 'object' } }, /^Elicitation refused: requestedSchema.properties is missing$/],
    [{ message: 'm', requestedSchema: { type: 'object', properties: [] } }, /^Elicitation refused: requestedSchema.properties must be an object/],
    [form('nope' as unknown as JsonObject), /^Elicitation refused: requestedSchema.properties.p must be a schema object$/],
    [form({ type: 'string', oneOf: 'nope' }), /^Elicitation refused: requestedSchema.properties.p has a oneOf that is not/],
  ];
  for (const [params, message] of cases) {
    const plan = planQuestion('elicitation/create', params, host);
    assert.equal(plan.kind === 'refuse' && plan.error.code, -32602, JSON.stringify(params));
    assert.equal(plan.kind === 'refuse' && plan.hostCannot, undefined, 'ill-formed for anyone, not just this host');
    assert.match(plan.kind === 'refuse' ? plan.error.message : '', message);
  }
});

test("a copy's answer form is the upstream's: what the downgrade changes is nothing an answer is checked by", () => {
  for (const shape of SHAPES) {
    for (const host of ['2025-06-18', '2025-11-25']) {
      const result = translateElicitation(shape.params, host);
      if (result.kind !== 'send' || shape.params.mode === 'url') continue;
      const original = answerFormOf(shape.params.requestedSchema as JsonObject & { properties: JsonObject });
      assert.equal(answerFormOf(structuredClone(result.params.requestedSchema) as JsonObject & { properties: JsonObject }), original, `${shape.name} → ${host}`);
    }
  }
});

test('same-revision pairs pass unchanged: 2025-06-18 params are a fixed point of the downgrade', () => {
  for (const shape of SHAPES) {
    const once = translateElicitation(shape.params, '2025-06-18');
    if (once.kind !== 'send') continue;
    assert.deepEqual(translateElicitation(once.params, '2025-06-18'), { ...once, droppedDefaults: false }, shape.name);
  }
  const withMeta = { message: 'm', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean', default: false } } }, _meta: { progressToken: 7 } };
  assert.deepEqual(translateElicitation(withMeta, '2025-06-18'), { kind: 'send', params: withMeta, droppedDefaults: false });
});

test('2025-11-25 task augmentation is stripped for a 2025-06-18 host (§10.4)', () => {
  const result = translateElicitation({ ...form({ type: 'string' }), task: { ttl: 1000 } }, '2025-06-18');
  assert.deepEqual(result, { kind: 'send', params: form({ type: 'string' }), droppedDefaults: false });
});

test('results share no objects with the input, for any host that can receive it', () => {
  for (const host of ['2025-06-18', '2025-11-25']) {
    const params = form({ type: 'boolean', default: true });
    const result = translateElicitation(params, host);
    assert.equal(result.kind, 'send');
    const out = result.kind === 'send' ? result.params : {};
    assert.notEqual(out, params);
    assert.notEqual(out.requestedSchema, params.requestedSchema);
    (out.requestedSchema as { required: string[] }).required.push('mutated');
    assert.deepEqual((params.requestedSchema as { required: string[] }).required, ['p'], host);
  }
});

test('a property named __proto__ stays a data key', () => {
  const params = JSON.parse('{"message":"m","requestedSchema":{"type":"object","properties":{"__proto__":{"type":"string","default":"x"}}}}') as JsonObject;
  const result = translateElicitation(params, '2025-06-18');
  assert.equal(result.kind, 'send');
  assert.equal(JSON.stringify(result.kind === 'send' ? result.params : null), '{"message":"m","requestedSchema":{"type":"object","properties":{"__proto__":{"type":"string"}}}}');
});

// ---- Cross-check against the published schema.json of each revision ----

type Schema = JsonObject;

/**
 * A tiny validator for the JSON Schema subset the MCP definitions use ($ref, type, const, enum,
 * properties, required, items, anyOf/oneOf, additionalProperties). The definitions do not say
 * `additionalProperties: false`, so with `closed` an object schema that lists `properties` rejects
 * any other key; without it, `{type:"string", default:"x"}` would pass StringSchema vacuously.
 */
function validate(root: Schema, schema: Schema, value: unknown, path: string, closed: boolean): string[] {
  if (typeof schema.$ref === 'string') {
    const [, group, name] = schema.$ref.split('/');
    return validate(root, (root[group ?? ''] as Record<string, Schema>)[name ?? ''] ?? {}, value, path, closed);
  }
  const errors: string[] = [];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key] as Schema[] | undefined;
    if (!branches) continue;
    const passing = branches.filter((b) => validate(root, b, value, path, closed).length === 0).length;
    if (key === 'anyOf' ? passing === 0 : passing !== 1) errors.push(`${path}: ${passing} of the ${key} branches match`);
  }
  if ('const' in schema && value !== schema.const) errors.push(`${path}: is not ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) errors.push(`${path}: not in enum`);
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    const ok = types.some((t) =>
      t === 'integer' ? Number.isInteger(value)
      : t === 'array' ? Array.isArray(value)
      : t === 'object' ? typeof value === 'object' && value !== null && !Array.isArray(value)
      : t === 'null' ? value === null
      : typeof value === t,
    );
    if (!ok) return [...errors, `${path}: is not of type ${types.join('|')}`];
  }
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => errors.push(...validate(root, schema.items as Schema, v, `${path}[${i}]`, closed)));
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const object = value as JsonObject;
    const props = schema.properties as Record<string, Schema> | undefined;
    for (const req of (schema.required as string[] | undefined) ?? []) if (!(req in object)) errors.push(`${path}: missing ${req}`);
    for (const [key, child] of Object.entries(object)) {
      const sub = props?.[key];
      if (sub) errors.push(...validate(root, sub, child, `${path}.${key}`, closed));
      else if (schema.additionalProperties === false) errors.push(`${path}: unexpected key ${key}`);
      else if (typeof schema.additionalProperties === 'object') errors.push(...validate(root, schema.additionalProperties as Schema, child, `${path}.${key}`, closed));
      else if (closed && props) errors.push(`${path}: key ${key} is not in the definition`);
    }
  }
  return errors;
}

function loadSchema(revision: string): Schema | undefined {
  const url = new URL(`../../../shared/mcp-schemas/${revision}/schema.json`, import.meta.url);
  return existsSync(url) ? (JSON.parse(readFileSync(url, 'utf8')) as Schema) : undefined;
}

function definitions(root: Schema): Record<string, Schema> {
  return (root.definitions ?? root.$defs) as Record<string, Schema>;
}

test('cross-check: every downgraded property is a 2025-06-18 PrimitiveSchemaDefinition (closed keys)', (t) => {
  const root = loadSchema('2025-06-18');
  if (!root) return t.skip('cross-check skipped: no ../shared/mcp-schemas beside this checkout');
  const primitive = definitions(root).PrimitiveSchemaDefinition;
  assert.ok(primitive, 'schema.json defines PrimitiveSchemaDefinition');
  const params = definitions(root).ElicitRequest?.properties as Record<string, Schema> | undefined;
  assert.ok(params?.params, 'schema.json defines ElicitRequest.params');

  let checked = 0;
  for (const shape of SHAPES) {
    const result = translateElicitation(shape.params, '2025-06-18');
    if (result.kind !== 'send') continue;
    const properties = (result.params.requestedSchema as { properties: Record<string, unknown> }).properties;
    for (const [name, property] of Object.entries(properties)) {
      assert.deepEqual(validate(root, primitive, property, name, true), [], `${shape.name}: ${name}`);
      checked++;
    }
    assert.deepEqual(validate(root, params.params, result.params, 'params', true), [], `${shape.name}: whole params`);
  }
  assert.equal(checked, 9);

  // The check is not vacuous: the 2025-11-25 originals it replaces are rejected.
  for (const raw of [{ type: 'string', default: 'x' }, { type: 'number', default: 1 }, TITLED_ONE_OF, { type: 'array', items: { type: 'string', enum: ['a'] } }]) {
    assert.notDeepEqual(validate(root, primitive, raw, 'raw', true), [], JSON.stringify(raw));
  }
  assert.notDeepEqual(validate(root, params.params, FORM_WITH_EXTRAS, 'params', true), []);
});

test('cross-check: the fixtures are genuine 2025-11-25 PrimitiveSchemaDefinitions (closed keys)', (t) => {
  const root = loadSchema('2025-11-25');
  if (!root) return t.skip('cross-check skipped: no ../shared/mcp-schemas beside this checkout');
  const primitive = definitions(root).PrimitiveSchemaDefinition;
  assert.ok(primitive);
  for (const shape of SHAPES) {
    const schema = shape.params.requestedSchema as { properties: Record<string, unknown> } | undefined;
    for (const [name, property] of Object.entries(schema?.properties ?? {})) {
      assert.deepEqual(validate(root, primitive, property, name, true), [], `${shape.name}: ${name}`);
    }
  }
});
