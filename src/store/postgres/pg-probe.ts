/** @module `switchboard check`'s look at a PostgreSQL store: the server's version and the schema's, read without changing anything. */

import type { ClientBase } from 'pg';

import type { InstanceSummary, StoreReport } from '../store-report.js';
import { tablesOf } from './pg-sql.js';
import { withFirstConnection, shownUrl } from './pg-pool.js';
import { checkSchemaState, latestVersion, readSchemaState } from './pg-schema.js';

/**
 * Connects once and reads the server's version and the schema's state, writing nothing (no schema is created and no
 * migration runs: `serve` does that). An unreachable server, a refused login, a schema of a newer Switchboard or of
 * another application is a failed report saying why, never with the password.
 */
export async function probePostgresStore(options: { url: string; schema: string; connectTimeoutMs?: number }): Promise<StoreReport> {
  const where = `${shownUrl(options.url)}, schema ${options.schema}`;
  const latestSchemaVersion = latestVersion();
  try {
    return await withFirstConnection(options, async (client) => {
      const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
      const state = await readSchemaState(client, options.schema);
      const base: StoreReport = { type: 'postgres', where, state: 'ok', latestSchemaVersion };
      if (rows[0] !== undefined) base.serverVersion = rows[0].server_version;
      checkSchemaState(state, `schema ${options.schema}`);
      if (!state.ours) return base;
      const report: StoreReport = { ...base, schemaVersion: state.version };
      if (state.tables.includes('instances')) report.instances = await readInstances(client, options.schema, state.version >= 2);
      return report;
    });
  } catch (error) {
    return { type: 'postgres', where, state: 'failed', error: error instanceof Error ? error.message : String(error), latestSchemaVersion };
  }
}

/** The instances recorded in `schema`, newest first (at most 50), their ages by the server's clock; `advertised`: the schema has the column (version 2). */
async function readInstances(client: ClientBase, schema: string, advertised: boolean): Promise<InstanceSummary[]> {
  const { rows } = await client.query<{ id: string; state: InstanceSummary['state']; age: number; silent: number; advertise: string | null }>(
    `SELECT id, state, extract(epoch FROM now() - started_at)::float8 AS age, extract(epoch FROM now() - heartbeat_at)::float8 AS silent, ${advertised ? 'advertise' : 'NULL AS advertise'}
     FROM ${tablesOf(schema).instances} ORDER BY started_at DESC LIMIT 50`,
  );
  return rows.map((row) => ({
    id: row.id,
    state: row.state,
    ageSeconds: Math.max(0, Math.round(row.age)),
    silentSeconds: Math.max(0, Math.round(row.silent)),
    ...(row.advertise === null ? {} : { advertise: row.advertise }),
  }));
}
