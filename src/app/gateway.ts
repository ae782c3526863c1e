/**
 * @module The gateway's composition: host sessions (legacy and 2026-07-28) in front of the upstream pool, with the
 * call registry, attribution and the fan-out of what upstreams send back wired between them.
 */

import { randomBytes, randomUUID } from 'node:crypto';

import type { NormalizedConfig, UpstreamSpec } from '../config/types.js';
import { gatewayServerCapabilities } from '../protocol/capabilities.js';
import { gatewayTaskCapabilities } from '../protocol/tasks.js';
import type { JsonObject, JsonRpcRequest } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import type { Transport, TransportPurpose } from '../upstream/transport/transport.js';
import type { HandleKeyRing } from '../bridge/handle-keys.js';
import { deriveHandleKey, handleKeyRing } from '../bridge/handle-keys.js';
import type { HandleLedger } from '../bridge/handle-ledger.js';
import { MemoryHandleLedger } from '../bridge/handle-ledger.js';
import type { GatewayHandle, HealthReport, HostChannel, HostSession, ModernExchange, ModernRequestContext, ModernSink } from '../ports/host-contracts.js';
import type { HostPort } from '../ports/host-port.js';
import { ModernHosts } from '../hosts/modern/modern-hosts.js';
import type { RoutedSessionEnv } from '../router/routed-session.js';
import { RoutedSession } from '../router/routed-session.js';
import type { CompositeDefinition } from '../composite/definition.js';
import type { RunRecorder } from '../composite/run-store.js';
import { CompositeTools } from '../router/composites/composite-tools.js';
import { AccessGate } from '../router/access-gate.js';
import { GatewayError } from '../protocol/gateway-errors.js';
import { GatewayHostSession } from '../hosts/legacy/host-session.js';
import type { HostSessionEnv } from '../hosts/legacy/host-session.js';
import type { Logger } from '../core/log.js';
import { SWITCHBOARD_INFO } from '../upstream/probe.js';
import { QuestionPolicy } from '../questions/route-policy.js';
import { SessionLimits } from '../ports/session-limits.js';
import type { UpstreamHandlers, UpstreamSession } from '../upstream/session.js';
import { UrlElicitationRegistry } from '../router/url-elicitations.js';
import { MemoryQuestionStore } from '../store/memory/memory-question-store.js';
import type { GatewayMetrics } from '../observability/gateway-metrics.js';
import type { Clock } from '../core/clock.js';
import { systemClock } from '../core/clock.js';
import { CallAttribution } from '../router/attribution.js';
import { CallRegistry } from '../router/calls.js';
import { QuestionDesk } from '../questions/desk.js';
import { UpstreamNotifications } from '../router/notifications.js';
import { UpstreamPool } from '../upstream/pool.js';
import type { UpstreamChanges } from '../upstream/pool.js';
import { settingsText } from '../config/settings-text.js';

export interface GatewayOptions {
  logger: Logger;
  /** Opens a transport for an upstream spec (the CLI passes the SDK-backed factory). */
  openTransport: (spec: UpstreamSpec, purpose?: TransportPurpose) => Transport;
  /**
   * The question desk and the route policy. Without them the gateway keeps questions in memory and
   * has no operator: each question goes to its host or, when the host cannot take it, is cancelled.
   */
  questions?: { desk: QuestionDesk; policy?: QuestionPolicy };
  /** Where upstream requests, upstream health and host sessions are counted (serve's /metrics). */
  metrics?: Pick<GatewayMetrics, 'upstreamRequest' | 'upstreamState' | 'sessionOpened' | 'sessionClosed' | 'sessionCounted' | 'sessionEvicted' | 'sessionRefused' | 'accessRefused'>;
  /**
   * The keys that sign requestState handles for 2026-07-28 hosts (the first signs; the rest still verify),
   * and the ledger that makes a parked call's handle single-use. Without keys, a random key lives as long as
   * the process (handles do not survive a restart; `serve` persists one). `owner`: this instance's id, named in every
   * parked handle when several instances share a store, so that a retry landing elsewhere is forwarded here.
   */
  requestState?: { keys: HandleKeyRing; ledger?: HandleLedger; owner?: string };
  /** Where composite runs are recorded (serve: beside the questions); without it runs are not kept. */
  runs?: RunRecorder;
  /** Most stand-in sessions for 2026-07-28 hosts at once (default: the config's `http.maxStandIns`). */
  maxStandIns?: number;
  /** What time it is (default: the system's): backoff and the burst rule of attribution read it. */
  clock?: Clock;
}

class Gateway implements GatewayHandle {
  readonly ready: Promise<void>;
  /** Host sessions of the HTTP edge and the 2026-07-28 principal sessions (stand-ins), counted together under the config's caps. */
  readonly sessionLimits: SessionLimits;
  /** Every upstream's first probe, each for at most its connect timeout: hosts' initialize (and server/discover) wait for it. */
  #probed: Promise<void>;
  #config: NormalizedConfig;
  #options: GatewayOptions;
  #logger: Logger;
  /** The legacy host sessions of the edges, by id. */
  #sessions = new Map<string, GatewayHostSession>();
  /** The one environment of the legacy host sessions of each transport. */
  #hostEnvs = new Map<string, HostSessionEnv>();
  /** Every host's routed session (legacy sessions and 2026-07-28 principals alike), by id: what upstreams send back fans out to them. */
  #routed = new Map<string, RoutedSession>();
  /** Every host call in flight, and which host owns each per-session upstream session. */
  #calls: CallRegistry<RoutedSession, UpstreamSession>;
  /** Which host received each URL-mode elicitation, per upstream session (for its completion). */
  #urlElicitations = new UrlElicitationRegistry<RoutedSession>();
  /** The upstreams: their links, status and backoff, the startup probe. */
  #pool: UpstreamPool<RoutedSession>;
  #questions: { readonly desk: QuestionDesk; policy: QuestionPolicy };
  /** Whether the desk is the gateway's own (then the gateway closes it). */
  #ownDesk: boolean;
  /** The composite tools of the config, and what runs them in every host session. */
  #compositeDefinitions: readonly CompositeDefinition[];
  #composites: CompositeTools | undefined;
  /** 2026-07-28 hosts: their principals' sessions, parked calls and listen streams. */
  #modern: ModernHosts;
  /** The access policy (`policy.rules`) every routed session applies. */
  #access: AccessGate;

  constructor(config: NormalizedConfig, options: GatewayOptions) {
    this.#config = config;
    this.#options = options;
    this.#logger = options.logger;
    const clock = options.clock ?? systemClock;
    this.#calls = new CallRegistry(clock);
    const notifications = new UpstreamNotifications<RoutedSession, UpstreamSession>({
      calls: this.#calls,
      attribution: new CallAttribution(this.#calls, clock),
      urlElicitations: this.#urlElicitations,
      hosts: () => this.#routed.values(),
      unattributable: (message) => new GatewayError('GW_ERR_QUESTION_UNATTRIBUTABLE', message).toProtocolError(),
      logger: options.logger,
    });
    const handlers: UpstreamHandlers = {
      onRequestDone: (upstream, method, seconds, outcome) => options.metrics?.upstreamRequest(upstream.spec.name, method, seconds, outcome),
      onRequest: (upstream, request, related) => notifications.request(upstream, request, related),
      onNotification: (upstream, message, related) => notifications.notification(upstream, message, related),
      onClose: (upstream, reason) => notifications.closed(upstream, reason),
    };
    this.#ownDesk = options.questions === undefined;
    this.#questions = {
      desk: options.questions?.desk ?? new QuestionDesk({ store: new MemoryQuestionStore(), logger: options.logger, operatorAvailable: false }),
      policy: options.questions?.policy ?? QuestionPolicy.fromConfig(config),
    };
    this.#access = new AccessGate(config.policy, { logger: options.logger, onRefused: () => options.metrics?.accessRefused('policy') });
    this.#compositeDefinitions = config.composites;
    this.#composites = config.composites.length > 0 ? new CompositeTools(config.composites, { logger: options.logger, ...(options.runs ? { recorder: options.runs } : {}) }) : undefined;
    this.#pool = new UpstreamPool({
      upstreams: config.upstreams,
      retry: config.retry,
      openTransport: options.openTransport,
      handlers,
      logger: options.logger,
      clock,
      adopt: (session, host) => this.#calls.adopt(session, host),
      listChanged: (method) => {
        for (const host of this.#routed.values()) if (!host.closed) host.listChanged(method);
      },
      metrics: options.metrics,
    });
    this.ready = this.#pool.ready;
    this.#probed = this.#pool.probed;
    const { maxSessions, maxSessionsPerPrincipal } = config.http;
    this.sessionLimits = new SessionLimits(
      { maxSessions, maxSessionsPerPrincipal, maxStandIns: options.maxStandIns ?? config.http.maxStandIns },
      {
        counted: (kind, delta) => options.metrics?.sessionCounted(kind, delta),
        evicted: (kind) => options.metrics?.sessionEvicted(kind),
        refused: (kind) => options.metrics?.sessionRefused(kind),
      },
    );
    this.#modern = new ModernHosts({
      onForeignHandle: () => options.metrics?.accessRefused('foreign-handle'),
      openSession: (port, transport, onClosed) => this.#openRouted(port, transport, onClosed),
      keys: options.requestState?.keys ?? handleKeyRing([deriveHandleKey(randomBytes(32))]),
      ledger: options.requestState?.ledger ?? new MemoryHandleLedger(),
      ...(options.requestState?.owner === undefined ? {} : { owner: options.requestState.owner }),
      questions: this.#questions,
      serverInfo: SWITCHBOARD_INFO,
      serverCapabilities: () => this.#serverCapabilities(),
      instructions: () => this.#instructions(),
      upstreamsProbed: () => this.#probed,
      roundDeadlineMs: (upstream, tool) => this.#questions.policy.for(upstream, tool).timeoutMs,
      idleTimeoutMs: config.http.sessionIdleTimeoutMs,
      logger: this.#logger,
      limits: this.sessionLimits,
    });
  }

  openSession(channel: HostChannel): HostSession {
    const id = randomUUID();
    const transport = channel.transport ?? 'unknown';
    this.#options.metrics?.sessionOpened(transport);
    const session = new GatewayHostSession(id, channel, this.#hostEnv(transport));
    this.#sessions.set(id, session);
    this.#routed.set(id, session.routed);
    return session;
  }

  /** What every legacy host session of one transport needs of the gateway: one object for all of them, not one each. */
  #hostEnv(transport: string): HostSessionEnv {
    const known = this.#hostEnvs.get(transport);
    if (known) return known;
    // Assigned onto the routed env, not spread: its getters must stay getters.
    const env: HostSessionEnv = Object.assign(
      this.#routedEnv(transport, (routed) => {
        const session = this.#sessions.get(routed.id);
        this.#sessions.delete(routed.id);
        session?.channelClosed();
      }),
      {
        serverInfo: SWITCHBOARD_INFO,
        serverCapabilities: () => this.#serverCapabilities(),
        taskCapabilities: () => gatewayTaskCapabilities(this.#upstreamCapabilities()),
        instructions: () => this.#instructions(),
        upstreamsProbed: () => this.#probed,
      },
    );
    this.#hostEnvs.set(transport, env);
    return env;
  }

  serveModern(request: JsonRpcRequest, context: ModernRequestContext, sink: ModernSink): ModernExchange {
    return this.#modern.serve(request, context, sink);
  }

  /** The routed session of a 2026-07-28 principal, reached through its port. */
  #openRouted(port: HostPort, transport: string, onClosed: () => void): RoutedSession {
    this.#options.metrics?.sessionOpened(transport);
    const routed = new RoutedSession(randomUUID(), port, this.#routedEnv(transport, onClosed));
    this.#routed.set(routed.id, routed);
    return routed;
  }

  /**
   * What every routed session needs of the gateway; `closed` runs once it closed (after the gateway forgot it). What a
   * reload replaces (page size, naming, composites, access policy) is read through getters, so it holds for new work.
   */
  #routedEnv(transport: string, closed: (routed: RoutedSession) => void): RoutedSessionEnv {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the getters below read the gateway's settings in force
    const gateway = this;
    return {
      get pageSize() {
        return gateway.#config.pageSize;
      },
      logger: this.#logger,
      get naming() {
        return gateway.#config.naming;
      },
      // A 2026-07-28 principal's concurrent calls are separate requests: each gets an upstream session of its own where
      // the upstream's questions would not say which call asked them.
      links: (host) => this.#pool.linksFor(host, { callsApart: host.port.delivery === 'input_required' }),
      calls: this.#calls,
      urlElicitations: this.#urlElicitations,
      questions: this.#questions,
      get composites() {
        return gateway.#composites;
      },
      get access() {
        return gateway.#access;
      },
      onClosed: (routed) => {
        this.#options.metrics?.sessionClosed(transport);
        this.#routed.delete(routed.id);
        this.#urlElicitations.dropHost(routed);
        closed(routed);
      },
    };
  }

  /**
   * A reloaded configuration, for new work (design 016): upstreams added are probed, removed ones closed (their calls
   * end with GW_ERR_UPSTREAM_CLOSED, their questions are abandoned, both saying why), changed ones reconnected; every
   * host's links follow, and hosts are told their lists changed. Composites, the access policy, question routes and
   * timeouts, naming, page size and session caps are the new ones from here on.
   */
  async reconfigure(next: NormalizedConfig): Promise<UpstreamChanges> {
    const before = this.#config;
    const changes = await this.#pool.reconfigure(next.upstreams, next.retry);
    this.#config = next;
    if (this.#options.questions?.policy === undefined) this.#questions.policy = QuestionPolicy.fromConfig(next);
    this.#access = new AccessGate(next.policy, { logger: this.#logger, onRefused: () => this.#options.metrics?.accessRefused('policy') });
    this.#compositeDefinitions = next.composites;
    this.#composites = next.composites.length > 0 ? new CompositeTools(next.composites, { logger: this.#logger, ...(this.#options.runs ? { recorder: this.#options.runs } : {}) }) : undefined;
    const { maxSessions, maxSessionsPerPrincipal } = next.http;
    this.sessionLimits.caps = { maxSessions, maxSessionsPerPrincipal, maxStandIns: this.#options.maxStandIns ?? next.http.maxStandIns };
    const ended = new Map<string, string>([
      ...changes.removed.map((name): [string, string] => [name, `upstream '${name}' was removed from the configuration`]),
      ...changes.changed.map((name): [string, string] => [name, `upstream '${name}' was changed in the configuration and is reconnecting`]),
    ]);
    const hosts = [...this.#routed.values()];
    await Promise.all(hosts.map((host) => host.relink(ended)));
    if (listsMayDiffer(before, next, changes)) {
      for (const host of hosts) if (host.profile && !host.closed) for (const method of LIST_CHANGES) host.listChanged(method);
    }
    return changes;
  }

  session(id: string): HostSession | undefined {
    return this.#sessions.get(id);
  }

  compositeProblems(): { missing: string[]; unchecked: string[] } {
    const missing: string[] = [];
    const unchecked: string[] = [];
    for (const definition of this.#compositeDefinitions) {
      definition.steps.forEach((step, index) => {
        const inner = step.kind === 'forEach' ? step.step : step;
        if (inner.kind !== 'tool') return;
        const where = `composites.${definition.name}.steps[${index}] (${step.id})`;
        const names = this.#pool.toolNames(inner.upstream);
        if (this.#pool.report(inner.upstream)?.state !== 'up' || names === undefined) {
          unchecked.push(`${where}: upstream '${inner.upstream}' is not up, so its tool '${inner.tool}' cannot be checked yet`);
        } else if (!names.includes(inner.tool)) {
          const known = names.length > 0 ? names.join(', ') : 'no tools';
          missing.push(`${where}: upstream '${inner.upstream}' has no tool '${inner.tool}' (it lists ${known})`);
        }
      });
    }
    return { missing, unchecked };
  }

  health(): HealthReport {
    return this.#pool.health();
  }

  callsInFlight(): number {
    return this.#calls.size;
  }

  async close(): Promise<void> {
    this.#pool.stopProbing();
    await this.#modern.close();
    await Promise.all([...this.#sessions.values()].map((session) => session.close()));
    await this.#pool.close();
    if (this.#ownDesk) await this.#questions.desk.close();
  }

  #serverCapabilities(): JsonObject {
    return gatewayServerCapabilities(this.#upstreamCapabilities());
  }

  /** What each upstream offered when last seen. */
  #upstreamCapabilities(): JsonObject[] {
    return this.#pool.reports().map((report) => report.capabilities).filter(isObject);
  }

  #instructions(): string | undefined {
    const parts = this.#pool
      .reports()
      .map((report) => ({ name: report.name, text: report.instructions }))
      .filter((p) => typeof p.text === 'string' && p.text.length > 0);
    return parts.length === 0 ? undefined : parts.map((p) => `[${p.name}] ${p.text}`).join('\n\n');
  }
}

/** The gateway as `serve` and `stdio` hold it: what the edges see, and the reload. */
export interface ReconfigurableGateway extends GatewayHandle {
  reconfigure(next: NormalizedConfig): Promise<UpstreamChanges>;
}

export function createGateway(config: NormalizedConfig, options: GatewayOptions): ReconfigurableGateway {
  return new Gateway(config, options);
}

/** What a host is told after a reload that may change what it is listed. */
const LIST_CHANGES = ['notifications/tools/list_changed', 'notifications/prompts/list_changed', 'notifications/resources/list_changed'] as const;

/** Whether a reload may change the lists hosts are shown: upstreams, composites, naming, or the access policy changed. */
function listsMayDiffer(before: NormalizedConfig, next: NormalizedConfig, changes: UpstreamChanges): boolean {
  if (changes.added.length + changes.removed.length + changes.changed.length > 0) return true;
  const shown = (config: NormalizedConfig) => settingsText({ composites: config.composites, naming: config.naming, access: { default: config.policy.default, rules: config.policy.rules }, order: config.upstreams.map((spec) => spec.name) });
  return shown(before) !== shown(next);
}
