/**
 * @module The gateway: host sessions in front of the configured upstreams, the startup probe and
 * health, and the dispatch of what each upstream session sends back to the host session it belongs to.
 */

import { randomBytes, randomUUID } from 'node:crypto';

import type { NormalizedConfig, UpstreamSpec } from '../config/types.js';
import { gatewayServerCapabilities } from '../protocol/capabilities.js';
import { gatewayTaskCapabilities } from '../protocol/tasks.js';
import { ProtocolError } from '../protocol/errors.js';
import type { JsonObject, JsonRpcId, JsonRpcNotification, JsonRpcRequest } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import type { RequestEnvelope } from '../protocol/request-envelope.js';
import { upstreamEnvelope } from '../protocol/request-envelope.js';
import { LATEST_LEGACY_REVISION } from '../protocol/revisions.js';
import type { Transport, TransportPurpose } from '../transport/transport.js';
import type { HandleKeyRing } from '../bridge/handle-keys.js';
import { deriveHandleKey, handleKeyRing } from '../bridge/handle-keys.js';
import type { HandleLedger } from '../bridge/handle-ledger.js';
import { MemoryHandleLedger } from '../bridge/handle-ledger.js';
import type { GatewayHandle, HealthReport, HostChannel, HostSession, ModernExchange, ModernRequestContext, ModernSink } from './contracts.js';
import type { ModernHostHooks } from './host-session.js';
import { ModernHosts } from './modern/modern-hosts.js';
import type { CompositeDefinition } from '../composite/definition.js';
import type { RunRecorder } from '../composite/run-store.js';
import { CompositeTools } from './composite-tools.js';
import { GatewayError } from './errors.js';
import { firstProbesSettled } from './first-probes.js';
import { GatewayHostSession } from './host-session.js';
import type { Logger } from './logger.js';
import type { ProbeReport, ProbeResult } from './probe.js';
import { probeReportOf, probeUpstream, RELAYABLE_CAPABILITIES, SWITCHBOARD_INFO } from './probe.js';
import { QuestionPolicy } from './question-policy.js';
import { SessionLimits } from './session-limits.js';
import { connectUpstream } from './upstream-connect.js';
import { isUpstreamsOwnFailure } from './upstream-fault.js';
import { UpstreamLink } from './upstream-link.js';
import { fetchAll } from './catalog.js';
import type { InitializeParams, UpstreamHandlers, UpstreamSession } from './upstream-session.js';
import { UpstreamStatus } from './upstream-status.js';
import { UrlElicitationRegistry } from './url-elicitations.js';
import { MemoryQuestionStore } from '../store/memory/memory-question-store.js';
import type { GatewayMetrics } from '../observability/gateway-metrics.js';
import type { Clock } from '../core/clock.js';
import { CountingIds, systemClock } from '../core/clock.js';
import type { Attributed } from '../router/attribution.js';
import { CallAttribution } from '../router/attribution.js';
import { CallRegistry } from '../router/calls.js';
import { QuestionDesk } from '../questions/desk.js';

export interface GatewayOptions {
  logger: Logger;
  /** Opens a transport for an upstream spec (the CLI passes the SDK-backed factory). */
  openTransport: (spec: UpstreamSpec, purpose?: TransportPurpose) => Transport;
  /**
   * The question desk and the route policy. Without them the gateway keeps questions in memory and
   * has no operator: each question goes to its host or, when the host cannot take it, is cancelled.
   */
  questions?: { broker: QuestionDesk; policy?: QuestionPolicy };
  /** Where upstream requests, upstream health and host sessions are counted (serve's /metrics). */
  metrics?: Pick<GatewayMetrics, 'upstreamRequest' | 'upstreamState' | 'sessionOpened' | 'sessionClosed' | 'sessionCounted' | 'sessionEvicted' | 'sessionRefused'>;
  /**
   * The keys that sign requestState handles for 2026-07-28 hosts (the first signs; the rest still verify),
   * and the ledger that makes a parked call's handle single-use. Without keys, a random key lives as long as
   * the process (handles do not survive a restart; `serve` persists one).
   */
  requestState?: { keys: HandleKeyRing; ledger?: HandleLedger };
  /** Where composite runs are recorded (serve: beside the questions); without it runs are not kept. */
  runs?: RunRecorder;
  /** Most stand-in sessions for 2026-07-28 hosts at once (default: the config's `http.maxStandIns`). */
  maxStandIns?: number;
  /** What time it is (default: the system's): backoff and the burst rule of attribution read it. */
  clock?: Clock;
}

const LIST_CHANGED = new Set(['notifications/tools/list_changed', 'notifications/prompts/list_changed', 'notifications/resources/list_changed']);
const CACHE_KEYS: Record<string, string[]> = {
  'notifications/tools/list_changed': ['tools'],
  'notifications/prompts/list_changed': ['prompts'],
  'notifications/resources/list_changed': ['resources', 'resourceTemplates'],
};

class Gateway implements GatewayHandle {
  readonly ready: Promise<void>;
  /** Host sessions of the HTTP edge and the stand-ins, counted together under the config's caps. */
  readonly sessionLimits: SessionLimits;
  /** Every upstream's first probe, each for at most its connect timeout: hosts' initialize (and server/discover) wait for it. */
  #probed: Promise<void>;
  #config: NormalizedConfig;
  #options: GatewayOptions;
  #logger: Logger;
  #status = new Map<string, UpstreamStatus>();
  #shared = new Map<string, UpstreamLink>();
  #sessions = new Map<string, GatewayHostSession>();
  /** Every host call in flight, and which host owns each per-session upstream session. */
  #calls: CallRegistry<GatewayHostSession, UpstreamSession>;
  #attribution: CallAttribution<GatewayHostSession, UpstreamSession>;
  /** Numbers the upstream sessions this gateway opens (their keys). */
  #ids = new CountingIds();
  /** Which host session received each URL-mode elicitation, per upstream session (for its completion). */
  #urlElicitations = new UrlElicitationRegistry<GatewayHostSession>();
  #retryTimers = new Set<NodeJS.Timeout>();
  /** Each upstream's tool names as its last probe listed them (composites are checked against them). */
  #toolNames = new Map<string, string[]>();
  #closed = false;
  #questions: { broker: QuestionDesk; policy: QuestionPolicy };
  /** Whether the desk is the gateway's own (then the gateway closes it). */
  #ownBroker: boolean;
  /** The composite tools of the config, and what runs them in every host session. */
  #compositeDefinitions: readonly CompositeDefinition[];
  #composites: CompositeTools | undefined;
  /** 2026-07-28 hosts: their stand-in sessions, parked calls and listen streams. */
  #modern: ModernHosts;

  constructor(config: NormalizedConfig, options: GatewayOptions) {
    this.#config = config;
    this.#options = options;
    this.#logger = options.logger;
    const clock = options.clock ?? systemClock;
    this.#calls = new CallRegistry(clock);
    this.#attribution = new CallAttribution(this.#calls, clock);
    this.#ownBroker = options.questions === undefined;
    this.#questions = {
      broker: options.questions?.broker ?? new QuestionDesk({ store: new MemoryQuestionStore(), logger: options.logger, operatorAvailable: false }),
      policy: options.questions?.policy ?? QuestionPolicy.fromConfig(config),
    };
    this.#compositeDefinitions = config.composites;
    this.#composites = config.composites.length > 0 ? new CompositeTools(config.composites, { logger: options.logger, ...(options.runs ? { recorder: options.runs } : {}) }) : undefined;
    for (const spec of config.upstreams) {
      const status = new UpstreamStatus(spec, config.retry, clock);
      this.#status.set(spec.name, status);
      if (spec.sharing === 'shared') this.#shared.set(spec.name, new UpstreamLink(status, () => this.#openShared(spec)));
    }
    const firstProbes = config.upstreams.map((spec) => ({ tried: this.#tryUpstream(spec), timeoutMs: spec.connectTimeoutMs }));
    this.ready = Promise.all(firstProbes.map((probe) => probe.tried)).then(() => undefined);
    this.#probed = firstProbesSettled(firstProbes);
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
      openSession: (channel, hooks) => this.#openHostSession(channel, hooks),
      keys: options.requestState?.keys ?? handleKeyRing([deriveHandleKey(randomBytes(32))]),
      ledger: options.requestState?.ledger ?? new MemoryHandleLedger(),
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
    return this.#openHostSession(channel);
  }

  serveModern(request: JsonRpcRequest, context: ModernRequestContext, sink: ModernSink): ModernExchange {
    return this.#modern.serve(request, context, sink);
  }

  #openHostSession(channel: HostChannel, modern?: ModernHostHooks): GatewayHostSession {
    const id = randomUUID();
    const transport = channel.transport ?? 'unknown';
    this.#options.metrics?.sessionOpened(transport);
    const session = new GatewayHostSession(id, channel, {
      serverInfo: SWITCHBOARD_INFO,
      serverCapabilities: () => this.#serverCapabilities(),
      taskCapabilities: () => gatewayTaskCapabilities(this.#upstreamCapabilities()),
      instructions: () => this.#instructions(),
      upstreamsProbed: () => this.#probed,
      pageSize: this.#config.pageSize,
      logger: this.#logger,
      naming: this.#config.naming,
      links: (host) => this.#linksFor(host),
      calls: this.#calls,
      urlElicitations: this.#urlElicitations,
      questions: this.#questions,
      ...(modern ? { modern } : {}),
      ...(this.#composites ? { composites: this.#composites } : {}),
      onClosed: (host) => {
        this.#options.metrics?.sessionClosed(transport);
        this.#sessions.delete(host.id);
        this.#urlElicitations.dropHost(host);
        channel.onSessionClosed?.();
      },
    });
    this.#sessions.set(id, session);
    return session;
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
        const names = this.#toolNames.get(inner.upstream);
        if (this.#status.get(inner.upstream)?.report.state !== 'up' || names === undefined) {
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
    const upstreams = [...this.#status.values()].map((status) => status.report);
    return { ready: upstreams.every((report) => report.state !== 'pending'), upstreams };
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#retryTimers) clearTimeout(timer);
    await this.#modern.close();
    await Promise.all([...this.#sessions.values()].map((session) => session.close()));
    await Promise.all([...this.#shared.values()].map((link) => link.close()));
    if (this.#ownBroker) await this.#questions.broker.close();
  }

  // ---- upstream sessions --------------------------------------------------------------------------

  #linksFor(host: GatewayHostSession): UpstreamLink[] {
    return this.#config.upstreams.map((spec) => {
      const shared = this.#shared.get(spec.name);
      if (shared) return shared;
      const status = this.#status.get(spec.name) as UpstreamStatus;
      return new UpstreamLink(status, () => this.#openFor(spec, host));
    });
  }

  async #openFor(spec: UpstreamSpec, host: GatewayHostSession): Promise<UpstreamSession> {
    const init = host.initParamsFor(spec.name);
    if (!init) throw new GatewayError('GW_ERR_NOT_INITIALIZED', 'Session not initialized');
    const session = await this.#connect(spec, init, () => host.envelopeFor(spec.name), { adopt: (created) => this.#calls.adopt(created, host), hostInit: true });
    // A 2026-07-28 upstream gets the level in each request's envelope instead.
    if (session.era === 'legacy' && host.logLevel && isObject(session.serverCapabilities.logging)) {
      await session.request('logging/setLevel', { level: host.logLevel }).catch(() => undefined);
    }
    return session;
  }

  /**
   * A shared upstream session serves every host, so it cannot declare one host's capabilities: it
   * declares what the gateway can relay, and each question is checked against the host it is
   * attributed to (see README, "Sharing an upstream session").
   */
  #openShared(spec: UpstreamSpec): Promise<UpstreamSession> {
    const init = { protocolVersion: LATEST_LEGACY_REVISION, capabilities: RELAYABLE_CAPABILITIES, clientInfo: SWITCHBOARD_INFO };
    // A 2026-07-28 upstream gets each host's own envelope on its calls; this one is for lists and the like.
    const envelope = upstreamEnvelope({ hostCapabilities: RELAYABLE_CAPABILITIES, hostRevision: LATEST_LEGACY_REVISION, clientInfo: SWITCHBOARD_INFO });
    return this.#connect(spec, init, () => envelope);
  }

  /**
   * Opens an upstream session. With `hostInit` (a host's own initialize params), only a failure of the
   * upstream's own marks it down: what one host sent must not put the upstream into backoff for everyone.
   */
  async #connect(
    spec: UpstreamSpec,
    init: InitializeParams,
    envelope: () => RequestEnvelope,
    options: { adopt?: (session: UpstreamSession) => void; hostInit?: boolean } = {},
  ): Promise<UpstreamSession> {
    const { adopt } = options;
    const status = this.#status.get(spec.name) as UpstreamStatus;
    let session: UpstreamSession;
    try {
      session = await connectUpstream({
        spec,
        open: () => this.#options.openTransport(spec),
        handlers: this.#handlers,
        logger: this.#logger,
        remembered: status.era,
        init,
        envelope,
        ids: this.#ids,
        ...(adopt ? { adopt } : {}),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (options.hostInit !== true || isUpstreamsOwnFailure(error)) this.#markDown(spec, reason);
      throw error instanceof ProtocolError || error instanceof GatewayError
        ? error
        : new GatewayError('GW_ERR_UPSTREAM_UNAVAILABLE', `upstream '${spec.name}' is unavailable: ${reason}`, { cause: error });
    }
    // A 2026-07-28 upstream tells its list changes on a listen stream only.
    session.listenForChanges();
    if (status.report.state !== 'up' || status.era !== session.era) this.#succeeded(status, probeReportOf(session));
    this.#options.metrics?.upstreamState(spec.name, true);
    return session;
  }

  /** Startup (and retry) probe: every upstream is tried once so health and capabilities are known. */
  async #tryUpstream(spec: UpstreamSpec): Promise<void> {
    if (this.#closed) return;
    const status = this.#status.get(spec.name) as UpstreamStatus;
    try {
      const shared = this.#shared.get(spec.name);
      const { toolNames, ...report } = shared
        ? await shared.get().then(async (session): Promise<ProbeResult> => ({ ...probeReportOf(session), toolNames: await toolNamesOf(session) }))
        : await probeUpstream(spec, () => this.#options.openTransport(spec, 'probe'), this.#logger, status.era);
      if (toolNames) this.#toolNames.set(spec.name, toolNames);
      this.#succeeded(status, report);
      this.#options.metrics?.upstreamState(spec.name, true);
      this.#logger.log('info', `upstream '${spec.name}' is up`, { era: report.era, protocolVersion: report.protocolVersion });
    } catch (error) {
      // A shared link's failed connect has already been recorded (and rescheduled) by #connect.
      if (!this.#shared.has(spec.name)) this.#markDown(spec, error instanceof Error ? error.message : String(error));
    }
  }

  /**
   * Records an upstream as up. When it was not up before (its first probe ran out of time, or it was down), hosts
   * answered without it learn that the merged lists changed: list_changed for each list it offers.
   */
  #succeeded(status: UpstreamStatus, report: ProbeReport): void {
    const arrived = status.report.state !== 'up';
    status.succeeded(report);
    if (!arrived) return;
    for (const method of listChangesOf(report.capabilities)) {
      for (const host of this.#sessions.values()) if (!host.closed) host.listChanged(method);
    }
  }

  #markDown(spec: UpstreamSpec, reason: string): void {
    const status = this.#status.get(spec.name) as UpstreamStatus;
    const delay = status.failed(reason);
    this.#options.metrics?.upstreamState(spec.name, false);
    this.#logger.log('warn', `upstream '${spec.name}' is down: ${status.report.error ?? ''}; retrying in ${delay} ms`);
    const timer = setTimeout(() => {
      this.#retryTimers.delete(timer);
      void this.#tryUpstream(spec);
    }, delay);
    timer.unref();
    this.#retryTimers.add(timer);
  }

  #serverCapabilities(): JsonObject {
    return gatewayServerCapabilities(this.#upstreamCapabilities());
  }

  /** What each upstream offered when last seen. */
  #upstreamCapabilities(): JsonObject[] {
    return [...this.#status.values()].map((s) => s.report.capabilities).filter(isObject);
  }

  #instructions(): string | undefined {
    const parts = [...this.#status.values()]
      .map((s) => ({ name: s.spec.name, text: s.report.instructions }))
      .filter((p) => typeof p.text === 'string' && p.text.length > 0);
    return parts.length === 0 ? undefined : parts.map((p) => `[${p.name}] ${p.text}`).join('\n\n');
  }

  // ---- what upstreams send back -------------------------------------------------------------------

  #handlers: UpstreamHandlers = {
    onRequestDone: (upstream, method, seconds, outcome) => this.#options.metrics?.upstreamRequest(upstream.spec.name, method, seconds, outcome),
    onRequest: (upstream, request, related) => this.#onUpstreamRequest(upstream, request, related),
    onNotification: (upstream, message, related) => this.#onUpstreamNotification(upstream, message, related),
    onClose: (upstream, reason) => {
      this.#logger.log('info', `upstream session ${upstream.key} ended: ${reason}`);
      this.#urlElicitations.dropUpstream(upstream.key);
      for (const host of this.#hostsOf(upstream)) host.upstreamClosed(upstream);
    },
  };

  /** Host sessions an upstream session serves: its owner, or every host for a shared one. */
  #hostsOf(upstream: UpstreamSession): GatewayHostSession[] {
    const owner = this.#calls.ownerOf(upstream);
    if (owner) return owner.closed ? [] : [owner];
    return [...this.#sessions.values()];
  }

  #onUpstreamRequest(upstream: UpstreamSession, request: JsonRpcRequest, relatedCallId: number | undefined): void {
    const target = this.#attribution.question(upstream, { meta: request.params?._meta, relatedCallId }, (host) => host.callsWithOpenQuestions(upstream));
    if (!target && request.method === 'ping') {
      upstream.respond(request.id, {}); // a ping no host call explains is the gateway's to answer
      return;
    }
    if (!target) {
      const why = `cannot tell which host session ${request.method} from upstream '${upstream.spec.name}' belongs to`;
      this.#logger.log('warn', why, { inFlight: this.#calls.onUpstream(upstream).length });
      upstream.respondError(request.id, new GatewayError('GW_ERR_QUESTION_UNATTRIBUTABLE', `Not deliverable: ${why}`).toProtocolError());
      return;
    }
    target.host.deliverQuestion(upstream, request, { callId: target.call?.upstreamId, relatedRequestId: target.call?.streamId, pause: target.pause });
  }

  #onUpstreamNotification(upstream: UpstreamSession, message: JsonRpcNotification, relatedCallId: number | undefined): void {
    const params = message.params ?? {};
    if (LIST_CHANGED.has(message.method)) {
      for (const key of CACHE_KEYS[message.method] ?? []) upstream.listCache.delete(key);
      for (const host of this.#hostsOf(upstream)) host.listChanged(message.method);
      return;
    }
    switch (message.method) {
      case 'notifications/subscriptions/acknowledged':
        return; // the gateway's own listen stream to a 2026-07-28 upstream (upstream-session.ts) was accepted
      case 'notifications/resources/updated':
        for (const host of this.#hostsOf(upstream)) {
          if (typeof params.uri === 'string' && host.isSubscribed(params.uri)) host.forward(message);
        }
        return;
      case 'notifications/cancelled':
        for (const host of this.#hostsOf(upstream)) {
          if (host.withdrawQuestion(upstream, params.requestId, params.reason)) return;
        }
        return;
      case 'notifications/tasks/status':
        // Only to the host whose task it is (shared upstreams included), under that host's id for it.
        for (const host of this.#hostsOf(upstream)) {
          if (host.taskStatus(upstream, message)) return;
        }
        this.#logger.log('debug', `dropping ${message.method} from upstream '${upstream.spec.name}': no host session has task ${JSON.stringify(params.taskId)}`);
        return;
      case 'notifications/elicitation/complete': {
        // Only to the host that received that elicitation (shared upstreams included); anyone else must never see it.
        const id = params.elicitationId;
        const target = typeof id === 'string' ? this.#urlElicitations.take(upstream.key, id) : undefined;
        if (target && !target.host.closed) target.host.elicitationComplete(message, target.relatedRequestId);
        else this.#logger.log('debug', `dropping ${message.method} from upstream '${upstream.spec.name}': no host session is waiting for elicitation ${JSON.stringify(id)}`);
        return;
      }
      case 'notifications/message': {
        const target = this.#attribution.notification(upstream, { meta: params._meta, relatedCallId }, (host) => host.callsWithOpenQuestions(upstream));
        if (target) target.host.forward(message, relatedId(target));
        else this.#logger.log('debug', `dropping a log line of shared upstream '${upstream.spec.name}' no host call explains`);
        return;
      }
      default: {
        const owner = this.#calls.ownerOf(upstream);
        if (owner) owner.forward(message);
        else this.#logger.log('debug', `dropping ${message.method} from shared upstream '${upstream.spec.name}'`);
      }
    }
  }
}

/** The list_changed notifications for the lists an upstream offering `capabilities` adds to the merged ones. */
function listChangesOf(capabilities: unknown): string[] {
  if (!isObject(capabilities)) return [];
  return (['tools', 'prompts', 'resources'] as const).filter((list) => isObject(capabilities[list])).map((list) => `notifications/${list}/list_changed`);
}

/** The host request whose stream carries what belongs to an attributed call. */
function relatedId(target: Attributed<GatewayHostSession, UpstreamSession>): JsonRpcId | undefined {
  return target.call?.streamId;
}

export function createGateway(config: NormalizedConfig, options: GatewayOptions): GatewayHandle {
  return new Gateway(config, options);
}

/** The names of an open session's tools (none when it offers no tools or cannot list them). */
async function toolNamesOf(session: UpstreamSession): Promise<string[] | undefined> {
  if (!isObject(session.serverCapabilities.tools)) return undefined;
  const tools = await fetchAll(session, 'tools').catch(() => undefined);
  return tools?.flatMap((tool) => (typeof tool.name === 'string' ? [tool.name] : []));
}
