/** @module The PostgreSQL store's connection pool: its settings, how its URL is shown (never the password), and a first connection that fails clearly. */

import { Client, Pool } from 'pg';
import type { ClientConfig } from 'pg';

import { redactUrl } from '../../protocol/redact-url.js';
import { QuestionStoreError } from '../store-error.js';
import { connectionReason } from './pg-errors.js';

/** Connections a store keeps open at most: enough for a desk and an operator console at question rates. */
export const DEFAULT_POOL_SIZE = 10;

/** How long opening a connection may take before it fails (the driver's default is to wait for ever). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

export interface PoolOptions {
  /** `postgres://user:password@host:port/database` (any form the `pg` driver reads). */
  url: string;
  /** At most this many connections (default 10). */
  poolSize?: number;
  connectTimeoutMs?: number;
  /**
   * Told about an error of an idle pooled connection (the server restarted, the network dropped it). The pool drops
   * that connection, and the next query opens another or fails with `unavailable`.
   */
  onPoolError?: (error: Error) => void;
}

/**
 * The URL as shown to people: the password removed and every query value replaced by `***`; the user, host, port and
 * database kept, so that a message says which server and which role.
 */
export function shownUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return redactUrl(url);
  }
  parsed.password = '';
  for (const key of new Set(parsed.searchParams.keys())) parsed.searchParams.set(key, '***');
  return parsed.toString();
}

/** The settings of one connection to the store's server (the pool's, a first connection's, the change listener's). */
export function clientConfig(options: PoolOptions): ClientConfig {
  return {
    connectionString: options.url,
    connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    keepAlive: true,
    application_name: 'switchboard',
  };
}

/** The pool the store works through; it connects on first use. */
export function createPool(options: PoolOptions): Pool {
  const pool = new Pool({ ...clientConfig(options), max: options.poolSize ?? DEFAULT_POOL_SIZE });
  // Without a listener, an idle connection's error would crash the process.
  pool.on('error', (error) => options.onPoolError?.(error));
  return pool;
}

/**
 * Runs `work` on a connection of its own (opening: migrating, reading the server's version), closed afterwards. A
 * connection that cannot be made rejects with `unavailable`, naming the server (without the password) and why; it is
 * closed at once (a pool would leave a connection refused during authentication open until the server times it out).
 */
export async function withFirstConnection<T>(options: PoolOptions, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client(clientConfig(options));
  // A dying socket fails the query in flight; the event itself needs a listener or it would crash the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw new QuestionStoreError('unavailable', `cannot connect to the PostgreSQL store ${shownUrl(options.url)}: ${connectionReason(error)}`, { cause: error });
  }
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}
