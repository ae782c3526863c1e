/** @module `switchboard check`'s look at a PostgreSQL store: the server's version and the schema's, read without changing anything. */

import type { StoreReport } from '../store-report.js';
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
      return state.ours ? { ...base, schemaVersion: state.version } : base;
    });
  } catch (error) {
    return { type: 'postgres', where, state: 'failed', error: error instanceof Error ? error.message : String(error), latestSchemaVersion };
  }
}
