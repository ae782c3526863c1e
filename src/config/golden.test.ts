/** @module Golden tests: each __fixtures__/*.yaml normalizes to its *.normalized.json (set UPDATE_GOLDEN=1 to rewrite them). */

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './load.js';

const FIXTURES = fileURLToPath(new URL('./__fixtures__', import.meta.url));
const ENV = { DESK_TOKEN: 'tok-123', REMOTE_HOST: '127.0.0.1:4000', REMOTE_TOKEN: 's3cret', EMPTY: '' };

const names = readdirSync(FIXTURES)
  .filter((file) => file.endsWith('.yaml'))
  .sort();

test('there are golden fixtures', () => {
  assert.ok(names.length >= 3, `found ${names.join(', ')}`);
});

for (const name of names) {
  test(`golden: ${name}`, async () => {
    const config = await loadConfig(join(FIXTURES, name), { env: ENV });
    const text = `${JSON.stringify(config, null, 2).split(FIXTURES).join('<dir>')}\n`;
    const goldenPath = join(FIXTURES, name.replace(/\.yaml$/, '.normalized.json'));
    if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(goldenPath, text);
    assert.deepEqual(JSON.parse(text), JSON.parse(readFileSync(goldenPath, 'utf8')));
  });
}
