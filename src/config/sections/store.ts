/** @module The `store` section: where questions and their audit trail are kept (SQLite file or memory). */

import { z } from 'zod';

/** Defaults as written in the file. */
const DEFAULTS = {
  store: 'sqlite',
  storePath: 'data/switchboard.db',
} as const;

export const storeSchema = z
  .strictObject({
    type: z
      .enum(['sqlite', 'memory'])
      .default(DEFAULTS.store)
      .meta({ description: 'sqlite: durable questions and audit in one file (default); memory: nothing survives a restart.' }),
    path: z
      .string()
      .min(1)
      .default(DEFAULTS.storePath)
      .meta({ description: 'The SQLite file (sqlite only), relative to the config file; its folder is created on first start.' }),
  })
  .meta({ description: 'Where questions and their audit trail are kept.' });
