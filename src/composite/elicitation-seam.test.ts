import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

test('the elicitation seam is made of the core\'s own types: it imports nothing but protocol/jsonrpc', () => {
  const text = readFileSync(new URL('./elicitation-seam.ts', import.meta.url), 'utf8');
  const specs = [...text.matchAll(/from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2]);
  assert.deepEqual(specs, ['../protocol/jsonrpc.js']);
  assert.doesNotMatch(text, /@modelcontextprotocol|ElicitRequest\b|ElicitResult\b/);
});
