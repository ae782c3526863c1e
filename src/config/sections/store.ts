/** @module The `store` section: where questions, their audit trail and composite runs are kept (SQLite file, PostgreSQL, or memory). */

import { z } from 'zod';

import type { ConfigProblem } from '../issue-problems.js';
import { custom } from './fields.js';

/** Where the PostgreSQL store's URL comes from when `store.url` is not in the file. */
export const STORE_URL_ENV = 'SWITCHBOARD_STORE_URL';

/** Defaults as written in the file. */
const DEFAULTS = {
  store: 'sqlite',
  storePath: 'data/switchboard.db',
  poolSize: 10,
  schema: 'public',
} as const;

/** A PostgreSQL name the store can use unquoted in messages and as given: lowercase, as PostgreSQL folds names. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Whether `text` is a URL the PostgreSQL driver reads as a server address (postgres:// or postgresql://). */
export function isPostgresUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'postgres:' || url.protocol === 'postgresql:';
  } catch {
    return false;
  }
}

// The messages never repeat the URL: it may carry a password.
const POSTGRES_URL = 'must be a postgres:// or postgresql:// URL';

export const storeSchema = z
  .strictObject({
    type: z
      .enum(['sqlite', 'postgres', 'memory'])
      .default(DEFAULTS.store)
      .meta({
        description:
          'sqlite: durable questions, audit and runs in one file (default); postgres: a shared PostgreSQL database, for several instances; memory: nothing survives a restart.',
      }),
    path: z
      .string()
      .min(1)
      .default(DEFAULTS.storePath)
      .meta({ description: 'The SQLite file (sqlite only), relative to the config file; its folder is created on first start.' }),
    url: z
      .string()
      .refine(isPostgresUrl, { error: POSTGRES_URL })
      .optional()
      .meta({
        description: `The PostgreSQL server (postgres only): postgres://user:password@host:port/database. \${VAR} is expanded; ${STORE_URL_ENV} is used when unset.`,
      }),
    poolSize: z
      .int()
      .min(1)
      .max(1000)
      .default(DEFAULTS.poolSize)
      .meta({ description: 'Connections the PostgreSQL store keeps open at most (postgres only).' }),
    schema: z
      .string()
      .regex(SCHEMA_NAME, { error: 'must be a PostgreSQL name: lowercase letters, digits and _, starting with a letter or _, at most 63 characters' })
      .default(DEFAULTS.schema)
      .meta({ description: 'The PostgreSQL schema holding the tables (postgres only); created on first start when missing.' }),
  })
  .superRefine((store, ctx) => {
    if (store.url !== undefined && store.type !== 'postgres') custom(ctx, 'only applies to type postgres', ['url']);
  })
  .meta({ description: 'Where questions, their audit trail and composite runs are kept.' });

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Before validation: a `postgres` store without `url` takes it from SWITCHBOARD_STORE_URL (written into `raw`). The
 * problem when neither gives one, or the variable's value is not a postgres:// URL, is reported at `store.type`'s line.
 */
export function storeUrlFromEnvironment(raw: unknown, env: Readonly<Record<string, string | undefined>>): ConfigProblem | undefined {
  const store = isPlainObject(raw) ? raw['store'] : undefined;
  if (!isPlainObject(store) || store['type'] !== 'postgres' || store['url'] !== undefined) return undefined;
  const at = { path: ['store', 'type'], shownPath: ['store', 'url'] };
  const fromEnv = env[STORE_URL_ENV];
  if (fromEnv === undefined || fromEnv === '') return { ...at, message: `is required with type postgres (or set ${STORE_URL_ENV} in the environment)` };
  if (!isPostgresUrl(fromEnv)) return { ...at, message: `${STORE_URL_ENV} ${POSTGRES_URL}` };
  store['url'] = fromEnv;
  return undefined;
}
