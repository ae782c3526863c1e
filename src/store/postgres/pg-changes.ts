/**
 * @module What other instances wrote, heard through PostgreSQL's LISTEN/NOTIFY: a connection of its own listens on the
 * schema's channel (the `questions_changed` trigger notifies each question's id on commit), and connects again after
 * it is lost; notifications sent meanwhile are lost, which the desk's re-read makes up for.
 */

import { createHash } from 'node:crypto';

import { Client, escapeIdentifier } from 'pg';

import type { PoolOptions } from './pg-pool.js';
import { clientConfig } from './pg-pool.js';

/** The channel of a schema's question changes: as the trigger of migration 1 names it. */
export function changeChannel(schema: string): string {
  return `sbq_${createHash('md5').update(schema).digest('hex').slice(0, 16)}`;
}

/** The wait before connecting again grows to this much. */
const MAX_RETRY_MS = 10_000;

export class PgChangeListener {
  #options: PoolOptions;
  #channel: string;
  #heard: (id: string) => void;
  #onError: (error: unknown) => void;
  #client: Client | undefined;
  #retry: NodeJS.Timeout | undefined;
  #retryMs = 250;
  #closed = false;

  constructor(options: PoolOptions, schema: string, heard: (id: string) => void, onError: (error: unknown) => void = () => undefined) {
    this.#options = options;
    this.#channel = changeChannel(schema);
    this.#heard = heard;
    this.#onError = onError;
    void this.#connect();
  }

  /** Resolves once the listening connection is closed; nothing is heard afterwards. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    const client = new Client(clientConfig(this.#options));
    client.on('notification', (message) => {
      if (message.channel === this.#channel && message.payload) this.#heard(message.payload);
    });
    // A dropped connection: listen again on a new one (what was notified meanwhile is found by the desk's re-read).
    const lost = (error?: unknown) => {
      if (this.#client !== client) return;
      this.#client = undefined;
      if (error) this.#onError(error);
      void client.end().catch(() => undefined);
      this.#later();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    this.#client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${escapeIdentifier(this.#channel)}`);
      this.#retryMs = 250;
      if (this.#closed) await client.end().catch(() => undefined);
    } catch (error) {
      lost(error);
    }
  }

  #later(): void {
    if (this.#closed) return;
    this.#retry = setTimeout(() => void this.#connect(), this.#retryMs);
    this.#retry.unref();
    this.#retryMs = Math.min(MAX_RETRY_MS, this.#retryMs * 2);
  }
}
