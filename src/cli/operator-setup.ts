/** @module Composes what `serve` runs for questions: the store, the desk, the operator token, and the console and REST routes. */

import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join, relative } from 'node:path';

import { QuestionDesk } from '../questions/desk.js';
import type { QuestionStore } from '../questions/question-store.js';
import type { RunStore } from '../composite/run-store.js';
import { MIN_TOKEN_LENGTH } from '../config/sections/console.js';
import type { ListenAddress, NormalizedConfig } from '../config/types.js';
import type { Logger } from '../core/log.js';
import type { ExtraRoutes } from '../edges/http/mcp-handler.js';
import { createOperatorRoutes } from '../edges/operator/operator-routes.js';
import type { ConfigControl } from '../edges/operator/operator-routes.js';
import { OperatorProblem } from '../edges/operator/operator-errors.js';
import type { GatewayMetrics } from '../observability/gateway-metrics.js';
import { createGatewayMetrics } from '../observability/gateway-metrics.js';
import { createMetricsRoute } from '../edges/metrics-route.js';
import { MetricsRegistry } from '../observability/metrics.js';
import { MemoryQuestionStore } from '../store/memory/memory-question-store.js';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
import { QUESTION_STORE_WRITES, RUN_STORE_WRITES, tracedWrites } from '../store/traced-writes.js';
import { openPostgresQuestionStore } from '../store/postgres/pg-question-store.js';
import { shownUrl } from '../store/postgres/pg-pool.js';
import { openSqliteQuestionStore } from '../store/sqlite/sqlite-question-store.js';
import { CliError } from './cli-io.js';
import type { ClusterMember } from './cluster-member.js';
import type { ClusterDirectory, ClusterLink } from '../edges/http/cluster-forward.js';
import type { HandleLedger } from '../bridge/handle-ledger.js';
import type { PgParkedCalls } from '../store/postgres/pg-parked-calls.js';
import { joinCluster } from './cluster-member.js';
import { dataFolder } from './data-folder.js';
import { createOperatorAccess } from './operator-access.js';
import type { Notifier } from '../notify/notifier.js';
import { setUpNotifier } from './notify-setup.js';

export const TOKEN_ENV = 'SWITCHBOARD_CONSOLE_TOKEN';

export interface OperatorSetup {
  desk: QuestionDesk;
  /**
   * Composite runs, kept beside the questions: in the same SQLite file and connection (`store: sqlite`), the same
   * PostgreSQL schema and pool (`store: postgres`), or in memory. Runs left `running` by a previous process were failed at start (`abandonRunning`).
   */
  runs: RunStore;
  /** The webhooks paged when a question waits for an operator (`notify`); `setTargets` swaps them, `setConsoleUrl` sets the links' base. */
  notifier: Notifier;
  /** What the gateway counts; served at /metrics (behind the operator token) when the console is enabled. */
  metrics: GatewayMetrics;
  /** Routes the HTTP edge serves besides MCP (empty when the console is disabled). */
  routes: ExtraRoutes[];
  /** Whether a request carries an operator credential: the operator token where accepted, an access token of the OpenID provider (false for all when the console is disabled). */
  isOperator(req: Request): Promise<boolean>;
  /** Whether operators sign in with OpenID Connect (auth.operators.oidc). */
  oidc: boolean;
  /** The operator token and where it came from, when the console is enabled and the token is accepted anywhere. */
  token?: { value: string; source: 'config' | 'environment' | 'generated' | 'token file'; file?: string };
  /** What `/healthz` shows an operator of the store: its type and where (never a password), and on PostgreSQL the instances. */
  healthDetails(): Promise<Record<string, unknown>>;
  /** On PostgreSQL: the other instances sharing the store, for the cluster link. */
  cluster?: ClusterDirectory;
  /** On PostgreSQL: the parked calls of 2026-07-28 hosts recorded in the store, as the handle ledger. */
  ledger?: HandleLedger;
  /** Gives the operator API the cluster link, over which an answer with a secret field reaches the instance holding its call. */
  useClusterLink(link: ClusterLink): void;
  /** Gives the operator API and `/healthz` the live configuration (GET /api/config, POST /api/config/reload). */
  useConfig(control: ConfigControl): void;
  close(): Promise<void>;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/i;

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.test(host);
}

/** Who this gateway is, stamped on the questions it records (hostname, listen address, config file). */
export function instanceOwner(config: NormalizedConfig, listen: ListenAddress): string {
  return `${hostname()} ${listen.host}:${listen.port} ${config.source ?? '(no config file)'}`;
}

async function openStore(config: NormalizedConfig, owner: string, logger: Logger): Promise<{ store: QuestionStore; runs: RunStore; closeRuns: () => Promise<void>; parkedCalls?: PgParkedCalls }> {
  if (config.store.kind === 'memory') {
    const runs = new MemoryRunStore();
    return { store: new MemoryQuestionStore({ owner }), runs, closeRuns: () => runs.close() };
  }
  if (config.store.kind === 'postgres') {
    const { url, poolSize, schema } = config.store;
    try {
      const onPoolError = (error: Error) => logger.log('warn', 'a pooled PostgreSQL connection failed; the next query opens another', { error: error.message });
      const store = await openPostgresQuestionStore({ url, poolSize, schema, owner, onPoolError });
      logger.log('info', 'question store: PostgreSQL', { ...store.settings() });
      // The runs live on the question store's pool and close with it.
      const parkedCalls = store.parkedCalls((error) => logger.log('warn', 'a parked-call record could not be written', { error: String(error) }));
      return { store, runs: store.runs, closeRuns: async () => undefined, parkedCalls };
    } catch (error) {
      throw new CliError(`cannot open the question store (PostgreSQL, schema ${schema}): ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  try {
    const store = await openSqliteQuestionStore({ path: config.store.path, owner });
    // Answers may hold what a person typed into a password field: the files are the owner's alone.
    for (const suffix of ['', '-wal', '-shm']) await chmod(`${config.store.path}${suffix}`, 0o600).catch(() => undefined);
    // The runs live on the question store's connection and close with it.
    return { store, runs: store.runs, closeRuns: async () => undefined };
  } catch (error) {
    throw new CliError(`cannot open the question store ${config.store.path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Where a generated token is kept: beside the SQLite file, or under data/ next to the config (memory and PostgreSQL stores). */
function tokenFile(config: NormalizedConfig): string {
  const base = dataFolder(config);
  return join(base, 'operator-token');
}

/**
 * The operator token: `console.token`, else $SWITCHBOARD_CONSOLE_TOKEN. Without either, a loopback gateway uses
 * (or creates, readable by its owner only) a token file; any other address is refused, so the console is never
 * exposed beyond this machine without a token someone chose.
 */
async function operatorToken(config: NormalizedConfig, env: NodeJS.ProcessEnv, listen: ListenAddress): Promise<NonNullable<OperatorSetup['token']>> {
  if (config.console.token !== undefined) return { value: config.console.token, source: 'config' };
  const fromEnv = env[TOKEN_ENV];
  if (fromEnv !== undefined && fromEnv !== '') {
    if (fromEnv.length < MIN_TOKEN_LENGTH || /\s/.test(fromEnv)) {
      throw new CliError(`${TOKEN_ENV} must be at least ${MIN_TOKEN_LENGTH} characters without whitespace`);
    }
    return { value: fromEnv, source: 'environment' };
  }
  // Accepted from loopback clients only (with OpenID Connect): a generated token reaches nobody else.
  if (!isLoopbackHost(listen.host) && config.auth.operators.token !== 'loopback') {
    throw new CliError(
      `the operator console would be reachable on ${listen.host} without a token: set console.token or ${TOKEN_ENV}, or console.enabled: false`,
    );
  }
  const file = tokenFile(config);
  const existing = await readFile(file, 'utf8').then((text) => text.trim(), () => undefined);
  if (existing !== undefined && existing.length >= MIN_TOKEN_LENGTH) return { value: existing, source: 'token file', file };
  const value = randomBytes(24).toString('base64url');
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${value}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return { value, source: 'generated', file };
}

export async function setUpOperator(config: NormalizedConfig, options: { env: NodeJS.ProcessEnv; listen: ListenAddress; logger: Logger }): Promise<OperatorSetup> {
  const tokenUsed = config.console.enabled && config.auth.operators.token !== 'off';
  const token = tokenUsed ? await operatorToken(config, options.env, options.listen) : undefined;
  // Operators answer where the console runs and someone can authenticate to it: with the token, or by signing in.
  const operators = config.console.enabled && (token !== undefined || config.auth.operators.oidc !== undefined);
  const owner = config.cluster.id ?? instanceOwner(config, options.listen);
  const { store, runs, closeRuns, parkedCalls } = tracedStores(await openStore(config, owner, options.logger), config.store.kind);
  // On PostgreSQL this gateway is one of several instances (design 013): it joins under its id, abandons at start only
  // the questions it left open itself, and sweeps for instances that died. SQLite and memory have one gateway per
  // store (design 006): at start it abandons every question left open, whoever stamped it.
  let member: ClusterMember | undefined;
  if (config.store.kind === 'postgres') {
    try {
      member = await joinCluster(config, owner, { store, runs, ...(parkedCalls ? { parkedCalls } : {}) }, options.logger);
    } catch (error) {
      await store.close().catch(() => undefined);
      throw error;
    }
  }
  const desk = new QuestionDesk({
    store,
    logger: options.logger,
    operatorAvailable: operators,
    answerers: config.policy.answerers,
    approvers: config.questions.approvers,
    ...(member ? { owner: member.id } : {}),
  });
  await desk.start();
  // Runs left `running` belonged to a process that stopped. A damaged run record must not keep the gateway from starting.
  try {
    const abandonedRuns = await runs.abandonRunning('the gateway stopped during the run', member?.id);
    if (abandonedRuns > 0) options.logger.log('warn', 'composite runs left running by a previous process were marked failed', { runs: abandonedRuns });
  } catch (error) {
    options.logger.log('error', 'could not mark the composite runs left running as failed', { error: error instanceof Error ? error.message : String(error) });
  }
  // Set once serve has the cluster link: an answer with a secret field travels it to the instance holding the call.
  let link: ClusterLink | undefined;
  // Set once serve has the config reloader.
  let configControl: ConfigControl | undefined;
  const liveConfig = (): ConfigControl => {
    if (configControl === undefined) throw new OperatorProblem('NOT_FOUND', 'The live configuration is not ready yet');
    return configControl;
  };
  const forwardTo = async (req: Request, owner: string, body: Uint8Array): Promise<Response | undefined> => {
    const target = link?.elsewhere(req, owner);
    return target === undefined ? undefined : link?.forward(req, target, body);
  };
  const access = operators ? createOperatorAccess(config, token?.value, { listen: options.listen, logger: options.logger }) : undefined;
  const operatorRoutes = access
    ? createOperatorRoutes({
        desk,
        runs,
        auth: access.auth,
        ...(token ? { token: token.value } : {}),
        ...(access.signIn ? { signIn: access.signIn } : {}),
        ...(config.http.publicUrl === undefined ? {} : { publicUrl: config.http.publicUrl }),
        logger: options.logger,
        maxJsonDepth: config.http.maxJsonDepth,
        forwardTo,
        config: { info: () => liveConfig().info(), reload: (operator) => liveConfig().reload(operator) },
      })
    : undefined;
  const registry = new MetricsRegistry();
  const metrics = createGatewayMetrics(registry);
  const unsubscribe = desk.subscribe((event) => metrics.questionChanged(event.question));
  const notify = setUpNotifier(config, { desk, store, registry, logger: options.logger });
  const metricsRoute = access ? createMetricsRoute({ registry, authorize: (req) => access.auth.isOperator(req) }) : undefined;
  return {
    desk,
    notifier: notify.notifier,
    isOperator: async (req) => (access ? access.auth.isOperator(req) : false),
    oidc: access?.auth.oidc === true,
    runs,
    metrics,
    routes: operatorRoutes && metricsRoute ? [operatorRoutes, { handle: (req) => metricsRoute.handle(req) }] : [],
    ...(token ? { token } : {}),
    ...(member ? { cluster: member.directory } : {}),
    ...(parkedCalls ? { ledger: parkedCalls } : {}),
    useClusterLink(cluster) {
      link = cluster;
    },
    useConfig(control) {
      configControl = control;
    },
    async healthDetails() {
      const kept = storeSummary(config);
      const shown = configControl === undefined ? {} : { config: configControl.info() };
      if (!member) return { store: kept, ...shown };
      return { store: kept, ...shown, instance: member.id, instances: await member.instances(), ...(parkedCalls ? { parkedCalls: await parkedCalls.counts() } : {}) };
    },
    async close() {
      unsubscribe();
      operatorRoutes?.close();
      access?.close();
      await desk.close();
      // After the desk (its last changes may be events), before the store (each attempt is audited there).
      await notify.close();
      await member?.close();
      await closeRuns();
      await store.close();
    },
  };
}

/** One line for stdout about where the console is and where its token lives (never the token itself). */
export function describeOperator(setup: OperatorSetup, baseUrl: string): string {
  const token = setup.token;
  if (!token && setup.oidc) return `Operator console at ${baseUrl}/console (sign in with OpenID Connect)\n`;
  if (!token) return 'Operator console disabled (console.enabled: false): questions go to hosts only\n';
  const where =
    token.source === 'config'
      ? 'token from console.token'
      : token.source === 'environment'
        ? `token from ${TOKEN_ENV}`
        : `token in ${relative(process.cwd(), token.file ?? '') || token.file} (${token.source === 'generated' ? 'generated now, ' : ''}readable by you only)`;
  return `Operator console at ${baseUrl}/console (${setup.oidc ? 'sign in with OpenID Connect; ' : ''}${where})\n`;
}

/** The store as `/healthz` shows it: its type and where (a PostgreSQL URL without its password). */
function storeSummary(config: NormalizedConfig): Record<string, unknown> {
  const { store } = config;
  if (store.kind === 'postgres') return { type: 'postgres', where: shownUrl(store.url), schema: store.schema };
  if (store.kind === 'sqlite') return { type: 'sqlite', where: store.path };
  return { type: 'memory' };
}

/** The stores with a span per write when tracing is on (the stores themselves when it is off). */
function tracedStores<S extends { store: QuestionStore; runs: RunStore }>(opened: S, kind: NormalizedConfig['store']['kind']): S {
  const system = kind === 'postgres' ? 'postgresql' : kind;
  return { ...opened, store: tracedWrites(opened.store, 'question', system, QUESTION_STORE_WRITES), runs: tracedWrites(opened.runs, 'run', system, RUN_STORE_WRITES) };
}
