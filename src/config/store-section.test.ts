/** @module Tests of the `store` section: SQLite by default, memory, and PostgreSQL with its URL from the file (`${VAR}` expanded) or SWITCHBOARD_STORE_URL. */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseConfigText } from './load.js';
import { assertConfigError } from './testing/assert-config-error.js';
import { yaml } from './testing/config-text.js';

const UPSTREAMS = ['upstreams:', '  desk: { command: node }'];

describe('the store section', () => {
  test('SQLite is the default, its path relative to the config file', () => {
    const config = parseConfigText(yaml(...UPSTREAMS), '/cfg/sb.yaml', { env: {} });
    assert.deepEqual(config.store, { kind: 'sqlite', path: '/cfg/data/switchboard.db' });
  });

  test('postgres with url: ${VAR} expanded, the pool size and schema at their defaults', () => {
    const config = parseConfigText(yaml('store:', '  type: postgres', '  url: postgres://gw:${PG_PASSWORD}@db.internal:5432/switchboard', ...UPSTREAMS), '/cfg/sb.yaml', {
      env: { PG_PASSWORD: 's3cret' },
    });
    assert.deepEqual(config.store, { kind: 'postgres', url: 'postgres://gw:s3cret@db.internal:5432/switchboard', poolSize: 10, schema: 'public' });
  });

  test('postgres without url takes SWITCHBOARD_STORE_URL; a url in the file wins over it', () => {
    const env = { SWITCHBOARD_STORE_URL: 'postgresql://gw:pw@db/sb?sslmode=require' };
    const fromEnv = parseConfigText(yaml('store: { type: postgres, poolSize: 4, schema: switchboard }', ...UPSTREAMS), '/cfg/sb.yaml', { env });
    assert.deepEqual(fromEnv.store, { kind: 'postgres', url: 'postgresql://gw:pw@db/sb?sslmode=require', poolSize: 4, schema: 'switchboard' });
    const fromFile = parseConfigText(yaml('store: { type: postgres, url: "postgres://other/sb" }', ...UPSTREAMS), '/cfg/sb.yaml', { env });
    assert.equal(fromFile.store.kind === 'postgres' ? fromFile.store.url : undefined, 'postgres://other/sb');
  });

  test('postgres with neither url nor SWITCHBOARD_STORE_URL is a config error at its line', () => {
    assertConfigError(
      () => parseConfigText(yaml(...UPSTREAMS, 'store:', '  type: postgres'), 'bad.yaml', { env: {} }),
      'bad.yaml:4: store.url: is required with type postgres (or set SWITCHBOARD_STORE_URL in the environment)',
    );
    assertConfigError(
      () => parseConfigText(yaml(...UPSTREAMS, 'store: { type: postgres }'), 'bad.yaml', { env: { SWITCHBOARD_STORE_URL: '' } }),
      'bad.yaml:3: store.url: is required with type postgres (or set SWITCHBOARD_STORE_URL in the environment)',
    );
  });

  test('a url that is not a postgres:// URL is refused without repeating it (it may hold a password)', () => {
    assertConfigError(
      () => parseConfigText(yaml(...UPSTREAMS, 'store:', '  type: postgres', '  url: mysql://gw:S3cret@db/sb'), 'bad.yaml', { env: {} }),
      'bad.yaml:5: store.url: must be a postgres:// or postgresql:// URL',
    );
    assertConfigError(
      () => parseConfigText(yaml(...UPSTREAMS, 'store: { type: postgres }'), 'bad.yaml', { env: { SWITCHBOARD_STORE_URL: 'db.internal:5432 S3cret' } }),
      'bad.yaml:3: store.url: SWITCHBOARD_STORE_URL must be a postgres:// or postgresql:// URL',
    );
    assertConfigError(
      () => parseConfigText(yaml(...UPSTREAMS, 'store:', '  type: postgres', '  url: postgres://gw:${NO_SUCH_VAR}@db/sb'), 'bad.yaml', { env: {} }),
      'bad.yaml:5: store.url: uses environment variable NO_SUCH_VAR, which is not set',
    );
  });

  test('url with another store type, and bad pool sizes and schema names, are refused', () => {
    assertConfigError(
      () => parseConfigText(yaml(...UPSTREAMS, 'store:', '  type: sqlite', '  url: postgres://db/sb'), 'bad.yaml', { env: {} }),
      'bad.yaml:5: store.url: only applies to type postgres',
    );
    assertConfigError(
      () => parseConfigText(yaml(...UPSTREAMS, 'store:', '  type: postgres', '  url: postgres://db/sb', '  poolSize: 0'), 'bad.yaml', { env: {} }),
      'bad.yaml:6: store.poolSize: must be at least 1 (got 0)',
    );
    assertConfigError(
      () => parseConfigText(yaml(...UPSTREAMS, 'store:', '  type: postgres', '  url: postgres://db/sb', '  schema: "my schema"'), 'bad.yaml', { env: {} }),
      'bad.yaml:6: store.schema: must be a PostgreSQL name: lowercase letters, digits and _, starting with a letter or _, at most 63 characters (got "my schema")',
    );
  });

  test('the environment variable is not read for the other store types', () => {
    const config = parseConfigText(yaml('store: { type: memory }', ...UPSTREAMS), '/cfg/sb.yaml', { env: { SWITCHBOARD_STORE_URL: 'not even a url' } });
    assert.deepEqual(config.store, { kind: 'memory' });
  });
});
