/** @module Two stores on one fresh schema of the test PostgreSQL, as two gateway instances (gw-a, gw-b) with pools of their own, closed and dropped afterwards. */

import type { PostgresQuestionStore } from '../pg-question-store.js';
import { openPostgresQuestionStore } from '../pg-question-store.js';
import { freshSchema, requireTestPgUrl, testPgUrlNamed } from './pg-test-database.js';

export interface TwoInstancesOptions {
  poolSize?: number;
  now?: () => Date;
  /** Application names for each instance's connections (so a test can find, and cut, them). */
  names?: { a: string; b: string };
}

/** Runs `body` with instances a and b on one fresh schema; the stores close and the schema is dropped afterwards. */
export async function withTwoInstances(body: (a: PostgresQuestionStore, b: PostgresQuestionStore, schema: string) => Promise<void>, options: TwoInstancesOptions = {}): Promise<void> {
  const { schema, dispose } = freshSchema();
  const url = (who: 'a' | 'b') => (options.names ? testPgUrlNamed(options.names[who]) : requireTestPgUrl());
  const common = { schema, poolSize: options.poolSize ?? 2, ...(options.now ? { now: options.now } : {}) };
  const a = await openPostgresQuestionStore({ url: url('a'), owner: 'gw-a', ...common });
  const b = await openPostgresQuestionStore({ url: url('b'), owner: 'gw-b', ...common });
  try {
    await body(a, b, schema);
  } finally {
    await a.close();
    await b.close();
    await dispose();
  }
}
