/** @module Tests of loadConfig reading files: a missing file, errors naming the file as given, and the bundled switchboard.yaml. */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './load.js';
import { yaml } from './testing/config-text.js';

describe('loadConfig', () => {
  test('a missing file is a ConfigError naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-config-'));
    try {
      const path = join(dir, 'absent.yaml');
      await assert.rejects(loadConfig(path), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.message, `${path}: cannot read: no such file`);
        return true;
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('errors name the file as it was given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-config-'));
    try {
      const path = join(dir, 'sb.yaml');
      writeFileSync(path, yaml('upstreams:', '  desk: { command: node }', 'pageSize: lots'));
      await assert.rejects(loadConfig(path), { message: `${path}:3: pageSize: must be a number (got "lots")` });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the bundled switchboard.yaml loads and runs the incident desk from the repo root', async () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const config = await loadConfig(join(root, 'switchboard.yaml'), { env: {} });
    assert.deepEqual(config.listen, { host: '127.0.0.1', port: 3939 });
    assert.equal(config.upstreams.length, 1);
    const [desk] = config.upstreams;
    assert.ok(desk?.kind === 'stdio');
    assert.equal(desk.name, 'desk');
    assert.equal(desk.command, 'node');
    assert.deepEqual(desk.args, ['bin/incident-desk.mjs']);
    assert.equal(desk.cwd, resolve(root));
  });
});
