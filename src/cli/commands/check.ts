/** @module `switchboard check`: probe every upstream once and print what each offers, or why it failed; and the store. */

import { loadConfig } from '../../config/load.js';
import type { NormalizedConfig } from '../../config/types.js';
import { probePostgresStore } from '../../store/postgres/pg-probe.js';
import { probeSqliteStore } from '../../store/sqlite/sqlite-probe.js';
import type { StoreReport } from '../../store/store-report.js';
import { checkUpstreams } from '../../upstream/check.js';
import { openUpstreamTransport } from '../../upstream/transport/open-upstream.js';
import { CONFIG_OPTION, DEFAULT_CONFIG_PATH, HELP_OPTION, parseCommandArgs } from '../args.js';
import type { CliIo } from '../cli-io.js';
import { formatCheckReport } from '../format-check.js';
import { CHECK_HELP } from '../help.js';
import { loggerFromEnv } from '../stderr-logger.js';

export async function checkCommand(argv: string[], io: CliIo): Promise<number> {
  const flags = parseCommandArgs('check', argv, { config: CONFIG_OPTION, help: HELP_OPTION });
  if (flags.help) {
    io.stdout.write(CHECK_HELP);
    return 0;
  }
  const config = await loadConfig(flags.config ?? DEFAULT_CONFIG_PATH);
  const logger = loggerFromEnv(io.env, io.stderr);
  const [reports, store] = await Promise.all([
    checkUpstreams(config, { logger, openTransport: (spec, purpose) => openUpstreamTransport(spec, { logger, purpose }) }),
    probeStore(config.store),
  ]);
  io.stdout.write(formatCheckReport(reports, store));
  return reports.every((report) => report.state === 'up') && store.state === 'ok' ? 0 : 1;
}

/** What the config's store is and whether it can be used, looked at without creating or changing anything. */
async function probeStore(store: NormalizedConfig['store']): Promise<StoreReport> {
  if (store.kind === 'memory') return { type: 'memory', state: 'ok' };
  if (store.kind === 'postgres') return probePostgresStore({ url: store.url, schema: store.schema });
  return probeSqliteStore(store.path);
}
