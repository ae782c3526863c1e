/** @module Keeps bridge/ to its layer: it imports only protocol/, the gateway code catalogue, node:crypto and itself (until src/layering.test.ts carries the rule). */

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
// The gateway code catalogue names the bridge's refusals; it is pure (protocol/ only, checked below).
const ALLOWED = /^(\.\/[^/]+\.js|\.\.\/protocol\/[^/]+\.js|\.\.\/gateway\/errors\.js|node:crypto)$/;

test('bridge/ imports only ../protocol, the gateway code catalogue, node:crypto and its own files', () => {
  const files = readdirSync(here).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
  assert.ok(files.includes('request-state.ts'), 'the scan sees the sources');
  const offending: string[] = [];
  let seen = 0;
  for (const file of files) {
    const text = readFileSync(join(here, file), 'utf8');
    for (const match of text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm)) {
      const spec = match[1] ?? match[2] ?? match[3] ?? '';
      seen++;
      if (!ALLOWED.test(spec)) offending.push(`${file} imports ${spec}`);
    }
  }
  assert.deepEqual(offending, []);
  assert.ok(seen > 10, 'the import pattern matches this folder’s imports');
  assert.ok(!ALLOWED.test('node:fs') && !ALLOWED.test('../app/gateway.js') && ALLOWED.test('../protocol/jsonrpc.js'));
});

test('the gateway code catalogue the bridge imports is pure: it imports only ../protocol', () => {
  const text = readFileSync(join(here, '../protocol/gateway-errors.ts'), 'utf8');
  const specs = [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1] ?? '');
  assert.ok(specs.length > 0, 'the scan sees its imports');
  assert.deepEqual(specs.filter((spec) => !/^\.\.\/protocol\/[^/]+\.js$/.test(spec)), []);
});
