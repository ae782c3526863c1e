/** @module The folder of what a gateway keeps on disk beside its store: the SQLite file's folder, or data/ next to the config with the memory and PostgreSQL stores. */

import { dirname, join } from 'node:path';

import type { NormalizedConfig } from '../config/types.js';

export function dataFolder(config: NormalizedConfig): string {
  return config.store.kind === 'sqlite' ? dirname(config.store.path) : join(dirname(config.source ?? join(process.cwd(), 'x')), 'data');
}
