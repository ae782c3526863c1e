/** @module `switchboard stdio`: the gateway served to one host over stdin/stdout; nothing but protocol on stdout. */

import { handleKeyRingFromTexts } from '../../bridge/handle-keys.js';
import { loadConfig } from '../../config/load.js';
import { createGateway } from '../../app/gateway.js';
import { openUpstreamTransport } from '../../upstream/transport/open-upstream.js';
import { serveStdio } from '../../edges/stdio/host-stdio.js';
import { CONFIG_OPTION, DEFAULT_CONFIG_PATH, HELP_OPTION, parseCommandArgs } from '../args.js';
import type { CliIo } from '../cli-io.js';
import { CliError } from '../cli-io.js';
import { checkComposites } from '../composite-check.js';
import { STDIO_HELP } from '../help.js';
import { logUnhandledRejections } from '../process-guards.js';
import { loggerFromEnv } from '../stderr-logger.js';
import { trackUpstreamProcesses } from '../upstream-processes.js';
import { releaseYoungGeneration } from '../startup-heap.js';

export async function stdioCommand(argv: string[], io: CliIo): Promise<number> {
  const flags = parseCommandArgs('stdio', argv, { config: CONFIG_OPTION, help: HELP_OPTION });
  if (flags.help) {
    io.stdout.write(STDIO_HELP);
    return 0;
  }
  const config = await loadConfig(flags.config ?? DEFAULT_CONFIG_PATH);
  const logger = loggerFromEnv(io.env, io.stderr, config.log.format);
  logUnhandledRejections(logger);
  // Keys from config only: without them a fresh key lives as long as this process (stdio writes no key file).
  const keys = config.requestState.keys === undefined ? undefined : handleKeyRingFromTexts(config.requestState.keys);
  if (keys && !keys.ok) throw new CliError(`requestState.keys[${keys.index}]: ${keys.reason}`);
  const processes = await trackUpstreamProcesses(config, logger);
  const gateway = createGateway(config, {
    logger,
    openTransport: (spec, purpose) => openUpstreamTransport(spec, { logger, purpose, processes }),
    ...(keys?.ok ? { requestState: { keys: keys.ring } } : {}),
  });
  const edge = serveStdio(gateway, { input: io.stdin, output: io.stdout, logger, maxJsonDepth: config.http.maxJsonDepth });
  // The host is served at once; a composite that names a missing tool stops the gateway once the upstreams are known.
  let refused = false;
  void gateway.ready.then(() => {
    releaseYoungGeneration();
    try {
      checkComposites(gateway, logger);
    } catch (error) {
      logger.log('error', error instanceof Error ? error.message : String(error));
      refused = true;
      void edge.close();
    }
  });

  const stop = await Promise.race([edge.done.then(() => 'stdin closed'), io.untilSignal()]);
  logger.log('info', 'shutting down', { reason: stop });
  await edge.close();
  await gateway.close();
  processes.close();
  return refused ? 2 : 0;
}
