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

type JsonSchemaNode = { properties?: Record<string, JsonSchemaNode>; additionalProperties?: JsonSchemaNode | boolean; default?: unknown };

/** Every key path of the JSON Schema (`upstreams.<name>.tools.allow`), with its default when it has one. */
function keysOf(node: JsonSchemaNode, prefix: string): KeyInfo[] {
  const keys: KeyInfo[] = [];
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    keys.push({ path, ...('default' in child ? { default: child.default } : {}) });
    keys.push(...keysOf(child, path));
    if (typeof child.additionalProperties === 'object' && child.additionalProperties.properties) {
      keys.push(...keysOf(child.additionalProperties, `${path}.<name>`));
    }
  }
  return keys;
}

/** The table row documenting `path`: a line starting with "| `path` |". */
function rowOf(path: string): string | undefined {
  return DOC.split('\n').find((line) => line.startsWith(`| \`${path}\` |`));
}

const leafKeys = keysOf(configJsonSchema() as JsonSchemaNode, '').filter(
  (key) => !['upstreams.<name>.tools', 'naming', 'http', 'retry'].includes(key.path),
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
