/** @module Every complete config in the README (a yaml block with `upstreams:`) parses as it is written, its ${VAR}s set to values of the right length. */

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { parseConfigText } from './load.js';

const README = join(import.meta.dirname, '..', '..', 'README.md');

function yamlBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1] ?? '').filter((block) => /^upstreams:/m.test(block));
}

test('the README\'s complete configs parse', () => {
  const blocks = yamlBlocks(readFileSync(README, 'utf8'));
  assert.ok(blocks.length >= 2, 'the README shows complete configs (at least the several-instances and the OAuth one)');
  for (const block of blocks) {
    const names = new Set([...block.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((match) => match[1] ?? ''));
    // A key is base64 of 32 bytes (requestState.keys); anything else a value long enough for any secret.
    const value = (name: string) => (name.endsWith('_KEY') ? randomBytes(32).toString('base64') : `${name.toLowerCase()}-value-long-enough-for-any-secret-0123456789`);
    const env = Object.fromEntries([...names].map((name) => [name, value(name)]));
    assert.doesNotThrow(() => parseConfigText(block, '/srv/switchboard/switchboard.yaml', { env }), `this README config does not parse:\n${block}`);
  }
});
