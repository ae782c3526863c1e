/** @module What `switchboard check` says of the store: its type, where it is (never a password), its schema version, or why it cannot be used. */

export interface StoreReport {
  type: 'sqlite' | 'postgres' | 'memory';
  /** The SQLite file, or the PostgreSQL URL without its password and the schema. */
  where?: string;
  /** `failed`: the store cannot be opened as it is (unreachable, refused, a newer or foreign schema); `error` says why. */
  state: 'ok' | 'failed';
  error?: string;
  /** PostgreSQL's version (`SHOW server_version`). */
  serverVersion?: string;
  /** The version the store's schema is at; undefined when nothing was created yet (the first `serve` creates it). */
  schemaVersion?: number;
  /** The version this Switchboard brings a store to. */
  latestSchemaVersion?: number;
  /** PostgreSQL: the gateway instances recorded in the schema, newest first, with their ages in seconds (the server's clock). */
  instances?: InstanceSummary[];
}

export interface InstanceSummary {
  id: string;
  state: 'up' | 'dead' | 'left';
  /** Seconds since it joined. */
  ageSeconds: number;
  /** Seconds since its last heartbeat. */
  silentSeconds: number;
  /** Where the other instances reach it (`cluster.advertise`), when it said. */
  advertise?: string;
}
