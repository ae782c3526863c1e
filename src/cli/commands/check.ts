/** @module `switchboard check`: probe every upstream once and print what each offers, or why it failed. */

import { loadConfig } from '../../config/load.js';
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
  const reports = await checkUpstreams(config, { logger, openTransport: (spec, purpose) => openUpstreamTransport(spec, { logger, purpose }) });
  io.stdout.write(formatCheckReport(reports));
  return reports.every((report) => report.state === 'up') ? 0 : 1;
}
