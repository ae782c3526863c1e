/** @module `switchboard serve`: the gateway over Streamable HTTP until SIGINT/SIGTERM. */

import { createRunRecorder } from '../../composite/run-store.js';
import { loadConfig } from '../../config/load.js';
import { parseListenAddress } from '../../config/listen.js';
import type { ListenAddress, NormalizedConfig } from '../../config/types.js';
import { ClusterLink } from '../../edges/http/cluster-forward.js';
import { createGateway } from '../../app/gateway.js';
import type { ReconfigurableGateway } from '../../app/gateway.js';
import { ConfigReloader } from '../reload/config-reloader.js';
import { watchConfigFile } from '../reload/config-watch.js';
import type { McpHttpHandler } from '../../edges/http/mcp-handler.js';
import { createMcpHttpHandler, MCP_PATH } from '../../edges/http/mcp-handler.js';
import type { Logger } from '../../core/log.js';
import { systemClock } from '../../core/clock.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { startHttpServer } from '../../edges/http/node-server.js';
import { openUpstreamTransport } from '../../upstream/transport/open-upstream.js';
import { CONFIG_OPTION, DEFAULT_CONFIG_PATH, HELP_OPTION, parseCommandArgs } from '../args.js';
import { CliError, UsageError } from '../cli-io.js';
import type { CliIo } from '../cli-io.js';
import { SERVE_HELP } from '../help.js';
import { setUpHostAuth } from '../host-auth-setup.js';
import { describeOperator, isLoopbackHost, setUpOperator } from '../operator-setup.js';
import type { OperatorSetup } from '../operator-setup.js';
import { requestStateKeys } from '../request-state-keys.js';
import { checkComposites } from '../composite-check.js';
import { logUnhandledRejections } from '../process-guards.js';
import { loggerFromEnv } from '../stderr-logger.js';
import { trackUpstreamProcesses } from '../upstream-processes.js';
import { releaseYoungGeneration } from '../startup-heap.js';
import { startTracing } from '../../observability/tracing.js';
import { SWITCHBOARD_INFO } from '../../upstream/probe.js';

function listenFlag(text: string): ListenAddress {
  try {
    return parseListenAddress(text);
  } catch (error) {
    throw new UsageError(`serve: --listen: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export async function serveCommand(argv: string[], io: CliIo): Promise<number> {
  const flags = parseCommandArgs('serve', argv, { config: CONFIG_OPTION, listen: { type: 'string', short: 'l' }, watch: { type: 'boolean', short: 'w' }, help: HELP_OPTION });
  if (flags.help) {
    io.stdout.write(SERVE_HELP);
    return 0;
  }
  const listen = flags.listen === undefined ? undefined : listenFlag(flags.listen);
  const configFile = flags.config ?? DEFAULT_CONFIG_PATH;
  const config = await loadConfig(configFile);
  const address = listen ?? config.listen;
  const logger = loggerFromEnv(io.env, io.stderr, config.log.format);
  logUnhandledRejections(logger);
  const tracing = await startTracing(config.tracing, io.env, logger, SWITCHBOARD_INFO.version);
  const operator = await setUpOperator(config, { env: io.env, listen: address, logger });
  const keys = await requestStateKeys(config).catch(async (error: unknown) => {
    await operator.close();
    throw error;
  });
  const processes = await trackUpstreamProcesses(config, logger);
  const cluster = clusterLink(config, operator, logger);
  const gateway = createGateway(config, {
    requestState: { keys: keys.ring, ...(cluster ? { owner: cluster.self } : {}), ...(operator.ledger ? { ledger: operator.ledger } : {}) },
    logger,
    openTransport: (spec, purpose) => openUpstreamTransport(spec, { logger, purpose, processes }),
    questions: { desk: operator.desk },
    runs: createRunRecorder(operator.runs, {
      onError: (error, run) => logger.log('warn', 'a composite run could not be recorded', { run: run.id, error: String(error) }),
    }),
    metrics: operator.metrics,
  });
  const stopReloads = liveConfig(configFile, config, { gateway, operator, io, logger, watch: flags.watch === true });
  const hosts = setUpHostAuth(config, address.host, logger);
  const handler = createMcpHttpHandler(gateway, {
    ...config.http,
    logger,
    extraRoutes: operator.routes,
    isOperator: (req) => operator.isOperator(req),
    healthDetails: () => operator.healthDetails(),
    ...(cluster ? { cluster } : {}),
    hostAuth: hosts.auth,
    refused: (why) => operator.metrics.accessRefused(why),
  });
  let server;
  try {
    server = await startHttpServer(handler, address, config.http);
    hosts.listening(server.url);
    // Webhooks link to the console where operators reach it: http.publicUrl, else the address the gateway listens on.
    if (config.http.publicUrl === undefined) {
      operator.notifier.setConsoleUrl(server.url);
      if (config.notify.length > 0 && !isLoopbackHost(address.host)) {
        logger.log('warn', 'notify: http.publicUrl is not set, so webhook links to the console name the listening address, which operators may not reach (behind a proxy, or on a wildcard address): set http.publicUrl', { listening: server.url });
      }
    }
  } catch (error) {
    stopReloads();
    await gateway.close();
    cluster?.close();
    processes.close();
    await operator.close();
    throw new CliError(`cannot listen on ${address.host}:${address.port}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const signal = io.untilSignal();
  const first = await Promise.race([gateway.ready.then(() => undefined), signal]);
  if (first === undefined) {
    try {
      checkComposites(gateway, logger);
    } catch (error) {
      stopReloads();
      await handler.close();
      await server.close();
      await gateway.close();
      cluster?.close();
      processes.close();
      await operator.close();
      throw error;
    }
    // The listening line comes first: scripts wait for it as the ready signal.
    io.stdout.write(`Switchboard listening on ${server.url}${MCP_PATH}\n`);
    io.stdout.write(describeOperator(operator, server.url));
    releaseYoungGeneration();
  }
  const received = first ?? (await signal);
  // The calls in flight here, and the requests handed to other instances whose answers still pass through here.
  await drain(handler, () => gateway.callsInFlight() + (cluster?.inFlight ?? 0), config.cluster.drainTimeoutMs, logger, received);
  logger.log('info', 'shutting down', { signal: received });
  stopReloads();
  await handler.close();
  await server.close();
  await gateway.close();
  cluster?.close();
  processes.close();
  await operator.close();
  await tracing.shutdown();
  return 0;
}

/**
 * On PostgreSQL with `cluster.advertise`: the link to the other instances (design 013). Without an address, another
 * instance cannot forward this one's sessions: a host whose request lands there gets 404 and starts again.
 */
function clusterLink(config: NormalizedConfig, operator: OperatorSetup, logger: Logger): ClusterLink | undefined {
  if (!operator.cluster) return undefined;
  const link = config.cluster.link;
  if (link === undefined) {
    logger.log('warn', 'cluster.advertise is not set: other instances cannot forward requests for this instance\'s sessions and parked calls (a host whose request lands elsewhere gets 404)');
    return undefined;
  }
  const cluster = new ClusterLink({ directory: operator.cluster, secret: link.secret, logger, maxBodyBytes: config.http.maxBodyBytes });
  operator.useClusterLink(cluster);
  return cluster;
}

/**
 * The live configuration (design 016): SIGHUP, `switchboard reload` (POST /api/config/reload) and, with `--watch`, a
 * change of the file reload it; `/healthz` and GET /api/config show its version. Returns what stops them.
 */
function liveConfig(
  file: string,
  config: NormalizedConfig,
  parts: { gateway: ReconfigurableGateway; operator: OperatorSetup; io: CliIo; logger: Logger; watch: boolean },
): () => void {
  const { gateway, operator, io, logger } = parts;
  const reloader = new ConfigReloader({
    file,
    running: config,
    logger,
    apply: async (next) => {
      const changes = await gateway.reconfigure(next);
      operator.desk.reconfigure({ answerers: next.policy.answerers, approvers: next.questions.approvers });
      operator.notifier.setTargets(next.notify);
      return changes;
    },
  });
  operator.useConfig({ info: () => reloader.info, reload: () => reloader.reload('api') });
  const stopHangup = io.onHangup?.(() => void reloader.reload('signal')) ?? (() => undefined);
  const stopWatch = parts.watch ? watchConfigFile(file, () => void reloader.reload('watch'), { logger }) : () => undefined;
  return () => {
    stopHangup();
    stopWatch();
  };
}

/** How often a draining gateway looks whether its calls ended. */
const DRAIN_POLL_MS = 100;

/**
 * On the signal: no new host sessions here (`/healthz` says draining; on a cluster, a new session or 2026-07-28 request
 * is handed to another instance), and at most `timeoutMs` for what is `busy` to end (a question still open is then
 * abandoned by the shutdown). A second signal ends the process at once (cli-io).
 */
async function drain(handler: McpHttpHandler, busy: () => number, timeoutMs: number, logger: Logger, signal: NodeJS.Signals): Promise<void> {
  handler.drain();
  const started = systemClock.now();
  if (busy() === 0 || timeoutMs === 0) return;
  logger.log('info', 'draining: waiting for the calls in flight', { signal, calls: busy(), drainTimeoutMs: timeoutMs });
  while (busy() > 0 && systemClock.now() - started < timeoutMs) await sleep(DRAIN_POLL_MS);
  const left = busy();
  if (left > 0) logger.log('warn', 'drain timeout: the calls still in flight are abandoned', { calls: left });
}
