/** @module Enforces the layering: the core (protocol, gateway, config) never imports the SDK, an HTTP framework or the edges. */

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('.', import.meta.url));

/** The production sources under `dir`: test files and test-support folders (`testing/`) are not layered. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return entry === 'testing' ? [] : sources(path);
    return entry.endsWith('.ts') && !entry.endsWith('.test.ts') ? [path] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm)].map(
    (m) => m[1] ?? m[2] ?? m[3] ?? '',
  );
}

const SDK_OR_FRAMEWORK = /^(@modelcontextprotocol\/|hono$|hono\/|@hono\/)/;

const rules: { layer: string; forbidden: RegExp; why: string }[] = [
  { layer: 'protocol', forbidden: /^(node:|@|\.\.\/|[a-z])/, why: 'protocol/ is pure: no I/O, no packages, no other layer' },
  { layer: 'translation', forbidden: /^(node:|@|\.\.\/(?!protocol\/)|[a-z])/, why: 'translation/ is pure: only protocol/ and itself' },
  { layer: 'gateway', forbidden: new RegExp(`${SDK_OR_FRAMEWORK.source}|^node:(http|https|net)$|^\\.\\.\\/(http|cli)\\/`), why: 'the gateway core stays free of SDK and HTTP types' },
  { layer: 'config', forbidden: new RegExp(`${SDK_OR_FRAMEWORK.source}|^\\.\\.\\/(http|cli|gateway)\\/`), why: 'config is read by the core and must not depend on edges' },
  {
    layer: 'broker',
    // The logger contract is the one thing it shares with the router.
    forbidden: new RegExp(`${SDK_OR_FRAMEWORK.source}|^node:|^[a-z@]|^\\.\\.\\/(http|cli|store|transport|console|metrics)\\/|^\\.\\.\\/gateway\\/(?!logger\\.js$)`),
    why: 'the broker is core: domain, policy and the store contract, no I/O and no implementations',
  },
  {
    layer: 'bridge',
    forbidden: new RegExp(`${SDK_OR_FRAMEWORK.source}|^node:(?!crypto$)|^(?!node:)[a-z@]|^\\.\\.\\/(?!protocol\\/)`),
    why: 'the era bridge is core: protocol/ and node:crypto only',
  },
  {
    layer: 'composite',
    // The elicitation seam and the other ports are the core's own types: no SDK or wire type, no gateway, config or edge.
    forbidden: new RegExp(`${SDK_OR_FRAMEWORK.source}|^node:(http|https|http2|net)$|^(?!node:)[a-z@]|^\\.\\.\\/(?!(protocol|translation)\\/)`),
    why: 'composite/ is core: protocol/, translation/ and node: builtins only',
  },
  {
    layer: 'store',
    forbidden: new RegExp(`${SDK_OR_FRAMEWORK.source}|^\\.\\.\\/(\\.\\.\\/)?(http|cli|gateway|transport|console|metrics|translation|config)\\/`),
    why: 'stores implement the broker contract and know nothing of the router or the edges',
  },
];

/**
 * A relative import as if written from the layer's top folder, so the rules hold for nested folders too:
 * within the layer it starts `./`, into another layer `../LAYER/`.
 */
function fromLayerTop(file: string, spec: string, layer: string): string {
  if (!spec.startsWith('.')) return spec;
  const target = join(dirname(file), spec);
  const within = relative(join(src, layer), target);
  if (!within.startsWith('..')) return `./${within.split(sep).join('/')}`;
  return `../${relative(src, target).split(sep).join('/')}`;
}

for (const rule of rules) {
  test(`${rule.layer}/ imports nothing it must not (${rule.why})`, () => {
    const offending: string[] = [];
    for (const file of sources(join(src, rule.layer))) {
      for (const written of imports(file)) {
        const spec = fromLayerTop(file, written, rule.layer);
        if (rule.forbidden.test(spec) && !(rule.layer !== 'gateway' && rule.layer !== 'config' && spec.startsWith('./'))) {
          offending.push(`${relative(src, file)} imports ${spec}`);
        }
      }
    }
    assert.deepEqual(offending, []);
  });
}

test('the import scanner sees every import form (so the rules above cannot pass vacuously)', () => {
  const core = sources(join(src, 'gateway')).flatMap(imports);
  assert.ok(core.includes('../protocol/jsonrpc.js'));
  assert.ok(sources(join(src, 'composite')).flatMap(imports).includes('../translation/elicitation-limits.js'));
  assert.ok(sources(join(src, 'transport')).flatMap(imports).some((spec) => spec.startsWith('@modelcontextprotocol/')));
});

test('nobody switches the layering lint rule off', () => {
  const all = readdirSync(src, { recursive: true }).map(String).filter((f) => f.endsWith('.ts')).map((f) => join(src, f));
  const disabled = all.filter((file) => /eslint-disable[^\n]*no-restricted-imports/.test(readFileSync(file, 'utf8')) && !file.endsWith('layering.test.ts'));
  assert.deepEqual(disabled.map((f) => relative(src, f)), []);
});
