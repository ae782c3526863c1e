/** @module Keeps docs/config.md true to the code: every key with its default is in the table, and the examples load. */

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { configJsonSchema } from './json-schema.js';
import { parseConfigText } from './load.js';

const DOC = readFileSync(new URL('../../docs/config.md', import.meta.url), 'utf8');

interface KeyInfo {
  path: string;
  default?: unknown;
}

type JsonSchemaNode = {
  properties?: Record<string, JsonSchemaNode>;
  additionalProperties?: JsonSchemaNode | boolean;
  items?: JsonSchemaNode;
  anyOf?: JsonSchemaNode[];
  default?: unknown;
};

/**
 * Every key path of the JSON Schema (`upstreams.<name>.tools.allow`, `composites.<name>.steps[].id`), with
 * its default when it has one. Map values are `<name>`, list items `[]`; each alternative of an anyOf is
 * followed at the same path.
 */
function keysOf(node: JsonSchemaNode, prefix: string): KeyInfo[] {
  const keys: KeyInfo[] = [];
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    keys.push({ path, ...('default' in child ? { default: child.default } : {}) });
    keys.push(...keysWithin(child, path));
  }
  return keys;
}

function keysWithin(node: JsonSchemaNode, path: string): KeyInfo[] {
  const keys = keysOf(node, path);
  if (typeof node.additionalProperties === 'object') keys.push(...keysWithin(node.additionalProperties, `${path}.<name>`));
  if (node.items !== undefined) keys.push(...keysWithin(node.items, `${path}[]`));
  for (const alternative of node.anyOf ?? []) keys.push(...keysWithin(alternative, path));
  return keys;
}

/** The table row documenting `path`: a line starting with "| `path` |". */
function rowOf(path: string): string | undefined {
  return DOC.split('\n').find((line) => line.startsWith(`| \`${path}\` |`));
}

/** The step inside a forEach has the keys of a tool or elicit step: one row documents it. */
const INNER_STEP = 'composites.<name>.steps[].forEach.step.';

const leafKeys = keysOf(configJsonSchema() as JsonSchemaNode, '').filter(
  (key) => !['upstreams.<name>.tools', 'naming', 'http', 'retry'].includes(key.path) && !key.path.startsWith(INNER_STEP),
);

test('the key table lists every key of the schema', () => {
  const missing = leafKeys.filter((key) => rowOf(key.path) === undefined).map((key) => key.path);
  assert.deepEqual(missing, []);
  assert.ok(leafKeys.length >= 24, `only ${leafKeys.length} keys found`);
});

test('the key table shows each default as the schema has it', () => {
  for (const key of leafKeys) {
    if (!('default' in key)) continue;
    const shown = typeof key.default === 'string' ? key.default : JSON.stringify(key.default);
    const defaultColumn = rowOf(key.path)?.split(' | ')[2];
    assert.equal(defaultColumn, `\`${shown}\``, `default of ${key.path}`);
  }
});

test('the key table documents no key the schema lacks', () => {
  const known = new Set(leafKeys.map((key) => key.path));
  const table = DOC.slice(DOC.indexOf('## Keys'), DOC.indexOf('### Durations'));
  const documented = [...table.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1] ?? '');
  assert.equal(documented.length, leafKeys.length);
  assert.deepEqual(
    documented.filter((path) => !known.has(path)),
    [],
  );
});

test('every YAML example with upstreams loads', () => {
  const examples = [...DOC.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1] ?? '').filter((text) => text.includes('upstreams:'));
  assert.ok(examples.length >= 2);
  for (const text of examples) {
    assert.doesNotThrow(() => parseConfigText(text, '/docs/example.yaml', { env: { REMOTE_TOKEN: 't' } }), text);
  }
});
