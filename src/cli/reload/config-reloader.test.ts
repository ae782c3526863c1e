/** @module Tests of the config reloader: refused files, what waits for a restart, nothing changed, one reload at a time. */

import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { config, spec } from '../../app/testing/gateway-doubles.js';
import type { NormalizedConfig } from '../../config/types.js';
import { silentLogger } from '../../core/log.js';
import type { UpstreamChanges } from '../../upstream/pool.js';
import { ConfigReloader } from './config-reloader.js';

const NONE: UpstreamChanges = { added: [], removed: [], changed: [] };

function reloader(running: NormalizedConfig, next: () => NormalizedConfig | Promise<NormalizedConfig>, apply: (next: NormalizedConfig) => Promise<UpstreamChanges> = async () => NONE) {
  const applied: NormalizedConfig[] = [];
  const subject = new ConfigReloader({
    file: 'switchboard.yaml',
    running,
    logger: silentLogger,
    load: async () => next(),
    apply: async (cfg) => {
      applied.push(cfg);
      return apply(cfg);
    },
  });
  return { subject, applied };
}

test('a file that does not validate is refused with the loader\'s file:line message, as at start; nothing is applied', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'sb-reload-'));
  try {
    const file = join(folder, 'switchboard.yaml');
    await writeFile(file, 'upstreams:\n  one:\n    command: node\n    sharing: sometimes\n');
    const applied: NormalizedConfig[] = [];
    const subject = new ConfigReloader({ file, running: config([spec('one')]), logger: silentLogger, apply: async (cfg) => (applied.push(cfg), NONE) });
    const before = subject.info;
    const outcome = await subject.reload('signal');
    assert.equal(outcome.ok, false);
    assert.ok(!outcome.ok && /switchboard\.yaml:4: upstreams\.one\.sharing/.test(outcome.error), JSON.stringify(outcome));
    assert.deepEqual(subject.info, before);
    assert.deepEqual(applied, []);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});

test('what only a restart changes is named and kept as it runs; the rest is applied and the version moves on', async () => {
  const running = config([spec('one')]);
  const next: NormalizedConfig = {
    ...config([spec('one'), spec('two')]),
    store: { kind: 'sqlite', path: '/var/lib/switchboard/q.db' },
    http: { ...running.http, maxBodyBytes: running.http.maxBodyBytes * 2, maxSessions: 7 },
    pageSize: 10,
  };
  const { subject, applied } = reloader(running, () => next, async () => ({ added: ['two'], removed: [], changed: [] }));
  const before = subject.info;
  const outcome = await subject.reload('api');
  assert.ok(outcome.ok && outcome.changed, JSON.stringify(outcome));
  assert.deepEqual(outcome.needsRestart, ['http.maxBodyBytes', 'store']);
  assert.deepEqual(outcome.upstreams.added, ['two']);
  const [cfg] = applied;
  assert.ok(cfg);
  assert.deepEqual(cfg.store, running.store, 'the store stays the running one');
  assert.equal(cfg.http.maxBodyBytes, running.http.maxBodyBytes);
  assert.equal(cfg.http.maxSessions, 7, 'session caps are live');
  assert.equal(cfg.pageSize, 10);
  assert.deepEqual(cfg.upstreams.map((u) => u.name), ['one', 'two']);
  assert.equal(subject.info.generation, 2);
  assert.notEqual(subject.info.version, before.version);

  // The same file again: the restart-only difference is still named, nothing is applied, the version stays.
  const again = await subject.reload('signal');
  assert.ok(again.ok && !again.changed);
  assert.deepEqual(again.needsRestart, ['http.maxBodyBytes', 'store']);
  assert.equal(applied.length, 1);
  assert.equal(subject.info.generation, 2);
});

test('a config that cannot be applied is refused and the running one stays', async () => {
  const running = config([spec('one')]);
  const { subject } = reloader(running, () => config([spec('two')]), async () => {
    throw new Error('boom');
  });
  const outcome = await subject.reload('watch');
  assert.ok(!outcome.ok && /could not be applied: boom/.test(outcome.error));
  assert.equal(subject.info.generation, 1);
  assert.equal(subject.running, running);
});

test('reloads run one at a time, in the order asked', async () => {
  let inside = 0;
  let most = 0;
  let n = 0;
  const { subject } = reloader(config([spec('one')]), () => config([spec(`u${(n += 1)}`)]), async () => {
    inside += 1;
    most = Math.max(most, inside);
    await new Promise((resolve) => setTimeout(resolve, 20));
    inside -= 1;
    return NONE;
  });
  const outcomes = await Promise.all([subject.reload('signal'), subject.reload('api'), subject.reload('watch')]);
  assert.equal(most, 1);
  assert.deepEqual(outcomes.map((o) => o.ok && o.config.generation), [2, 3, 4]);
});
