/** @module The upstream pool: links per host session or shared, the list sessions of per-session upstreams, opening upstream sessions, the startup probe, backoff and marking down, health. */

import type { UpstreamSpec } from '../config/types.js';
import type { Clock } from '../core/clock.js';
import { CountingIds } from '../core/clock.js';
import { sameSettings } from '../config/settings-text.js';
import { ProtocolError } from '../protocol/errors.js';
import { isObject } from '../protocol/jsonrpc.js';
import type { RequestEnvelope } from '../protocol/request-envelope.js';
import { upstreamEnvelope } from '../protocol/request-envelope.js';
import { LATEST_LEGACY_REVISION } from '../protocol/revisions.js';
import type { Transport, TransportPurpose } from './transport/transport.js';
import { fetchAll } from './list-all.js';
import type { HealthReport, UpstreamReport } from '../ports/host-contracts.js';
import { GatewayError } from '../protocol/gateway-errors.js';
import { firstProbesSettled } from './first-probes.js';
import type { Logger } from '../core/log.js';
import type { ProbeReport, ProbeResult } from './probe.js';
import { probeReportOf, probeUpstream, RELAYABLE_CAPABILITIES, SWITCHBOARD_INFO } from './probe.js';
import { connectUpstream } from './connect.js';
import { isUpstreamsOwnFailure } from './fault.js';
import { UpstreamLink } from './link.js';
import type { ListsFrom } from './link.js';
import { ListSources } from './list-source.js';
import type { InitializeParams, UpstreamHandlers, UpstreamSession } from './session.js';
import { UpstreamStatus } from './status.js';

/** What the pool needs of a host session to open its own upstream sessions. */
export interface PoolHost {
  /** The host's initialize params as sent to `upstream` (undefined: the host has not initialized). */
  initParamsFor(upstream: string): InitializeParams | undefined;
  /** The envelope of the host's requests to a 2026-07-28 `upstream`. */
  envelopeFor(upstream: string): RequestEnvelope;
  /** The log level the host set, if any (sent on to each legacy upstream session it opens). */
  readonly logLevel: string | undefined;
  /** A list the host was shown changed (`notifications/tools/list_changed` and the like). */
  listChanged(method: string): void;
}

export interface UpstreamPoolOptions<H extends PoolHost> {
  upstreams: readonly UpstreamSpec[];
  retry: { initialDelayMs: number; maxDelayMs: number };
  /** Opens a transport for an upstream spec. */
  openTransport: (spec: UpstreamSpec, purpose?: TransportPurpose) => Transport;
  /** Where every upstream session sends what its upstream sends back. */
  handlers: UpstreamHandlers;
  logger: Logger;
  /** Backoff reads it. */
  clock: Clock;
  /** A per-session upstream session was opened for `host`: it belongs to that host. */
  adopt: (session: UpstreamSession, host: H) => void;
  /** An upstream that was not up is up now: every live host learns that this merged list changed. */
  listChanged: (method: string) => void;
  /** Where upstream health is counted. */
  metrics?: { upstreamState(upstream: string, up: boolean): void } | undefined;
}

export class UpstreamPool<H extends PoolHost> {
  /** Every upstream's first probe has finished, whatever its outcome. */
  readonly ready: Promise<void>;
  /** Every upstream's first probe, each for at most its connect timeout: hosts' initialize (and server/discover) wait for it. */
  readonly probed: Promise<void>;
  #options: UpstreamPoolOptions<H>;
  /** The upstreams as configured now (the options' at first, a reload's after). */
  #upstreams: readonly UpstreamSpec[];
  #status = new Map<string, UpstreamStatus>();
  #shared = new Map<string, UpstreamLink>();
  /** The list sessions of each per-session upstream whose lists are shared (`lists: shared`). */
  #lists = new Map<string, ListSources>();
  /** Numbers the upstream sessions this pool opens (their keys). */
  #ids = new CountingIds();
  #retryTimers = new Set<NodeJS.Timeout>();
  /** Each upstream's tool names as its last probe listed them (composites are checked against them). */
  #toolNames = new Map<string, string[]>();
  #stopped = false;

  constructor(options: UpstreamPoolOptions<H>) {
    this.#options = options;
    this.#upstreams = options.upstreams;
    for (const spec of options.upstreams) this.#add(spec);
    const firstProbes = options.upstreams.map((spec) => ({ tried: this.#tryUpstream(spec), timeoutMs: spec.connectTimeoutMs }));
    this.ready = Promise.all(firstProbes.map((probe) => probe.tried)).then(() => undefined);
    this.probed = firstProbesSettled(firstProbes);
  }

  /** The upstreams as configured now, in config order. */
  get upstreams(): readonly UpstreamSpec[] {
    return this.#upstreams;
  }

  /** An upstream's status, and its shared link or list sessions. */
  #add(spec: UpstreamSpec): void {
    const status = new UpstreamStatus(spec, this.#options.retry, this.#options.clock);
    this.#status.set(spec.name, status);
    if (spec.sharing === 'shared') this.#shared.set(spec.name, new UpstreamLink(status, () => this.#openShared(spec)));
    else if (spec.lists === 'shared') {
      this.#lists.set(spec.name, new ListSources({
        status,
        open: (init, handlers) => this.#connect(spec, init, () => listEnvelope(init), { hostInit: true, handlers }),
        logger: this.#options.logger,
        ...(this.#options.handlers.onRequestDone ? { onRequestDone: this.#options.handlers.onRequestDone } : {}),
      }));
    }
  }

  /**
   * The configuration changed (a reload): upstreams gone from it or changed in it are closed, their shared and list
   * sessions first (calls pending there fail with GW_ERR_UPSTREAM_CLOSED and `reason`); new and changed ones are
   * probed. Per-session links of host sessions are the caller's to renew (RoutedSession.relink). Same names, same
   * settings: untouched.
   */
  async reconfigure(upstreams: readonly UpstreamSpec[], retry: { initialDelayMs: number; maxDelayMs: number }): Promise<UpstreamChanges> {
    const before = new Map(this.#upstreams.map((spec) => [spec.name, spec]));
    const after = new Map(upstreams.map((spec) => [spec.name, spec]));
    const changes: UpstreamChanges = {
      added: upstreams.filter((spec) => !before.has(spec.name)).map((spec) => spec.name),
      removed: this.#upstreams.filter((spec) => !after.has(spec.name)).map((spec) => spec.name),
      changed: upstreams.filter((spec) => before.has(spec.name) && !sameSettings(before.get(spec.name), spec)).map((spec) => spec.name),
    };
    this.#options = { ...this.#options, retry };
    this.#upstreams = upstreams;
    const closing: Promise<void>[] = [];
    for (const name of [...changes.removed, ...changes.changed]) {
      const why = changes.removed.includes(name) ? `upstream '${name}' was removed from the configuration` : `upstream '${name}' was changed in the configuration and is reconnecting`;
      closing.push(this.#drop(name, why));
    }
    // The statuses in config order (reports and health list them so), the kept ones as they were.
    const kept = new Map(this.#status);
    this.#status.clear();
    for (const spec of upstreams) {
      const status = kept.get(spec.name);
      if (status && !changes.changed.includes(spec.name)) {
        status.setRetry(retry);
        this.#status.set(spec.name, status);
      }
      else this.#add(spec);
    }
    await Promise.all(closing);
    for (const name of [...changes.added, ...changes.changed]) void this.#tryUpstream(after.get(name) as UpstreamSpec);
    return changes;
  }

  /** Closes what the pool holds of one upstream and forgets it. */
  async #drop(name: string, why: string): Promise<void> {
    const shared = this.#shared.get(name);
    const lists = this.#lists.get(name);
    this.#shared.delete(name);
    this.#lists.delete(name);
    this.#status.delete(name);
    this.#toolNames.delete(name);
    this.#options.logger.log('info', why);
    await Promise.all([shared?.close(why), lists?.close(why)]);
  }

  /**
   * One link per configured upstream, in config order: the shared one, or a new one of `host`'s own. With
   * `callsApart` (a 2026-07-28 principal's stand-in), a per-session upstream whose questions do not say which call
   * asked them (stdio, legacy SSE) gives each call in flight a session of its own (UpstreamLink.forCall).
   */
  linksFor(host: H, options: { callsApart?: boolean } = {}): UpstreamLink[] {
    return this.#upstreams.map((spec) => {
      const shared = this.#shared.get(spec.name);
      if (shared) return shared;
      const oneCallPerSession = options.callsApart === true && spec.kind !== 'streamable-http';
      const listsFrom = this.#listsFrom(spec, host);
      return new UpstreamLink(this.#statusOf(spec), () => this.#openFor(spec, host), { oneCallPerSession, ...(listsFrom ? { listsFrom } : {}) });
    });
  }

  /** How many list sessions (of per-session upstreams, for hosts without their own) are open now. */
  get listSessions(): number {
    return [...this.#lists.values()].reduce((sum, sources) => sum + sources.open, 0);
  }

  /** Where `host`'s link to a per-session upstream reads its lists before its own session opens (undefined: from that session). */
  #listsFrom(spec: UpstreamSpec, host: H): ListsFrom | undefined {
    const sources = this.#lists.get(spec.name);
    if (!sources) return undefined;
    return {
      source: () => {
        const init = host.initParamsFor(spec.name);
        if (!init) throw new GatewayError('GW_ERR_NOT_INITIALIZED', 'Session not initialized');
        return sources.sourceFor(init);
      },
      changed: (method) => host.listChanged(method),
    };
  }

  /** Each upstream as last seen, in config order. */
  reports(): UpstreamReport[] {
    return [...this.#status.values()].map((status) => status.report);
  }

  /** The report of one upstream (undefined: no such upstream). */
  report(upstream: string): UpstreamReport | undefined {
    return this.#status.get(upstream)?.report;
  }

  /** An upstream's tool names as its last probe listed them (undefined: not listed yet). */
  toolNames(upstream: string): string[] | undefined {
    return this.#toolNames.get(upstream);
  }

  health(): HealthReport {
    const upstreams = this.reports();
    return { ready: upstreams.every((report) => report.state !== 'pending'), upstreams };
  }

  /** No more probes: the retries that are due are dropped. */
  stopProbing(): void {
    this.#stopped = true;
    for (const timer of this.#retryTimers) clearTimeout(timer);
    this.#retryTimers.clear();
  }

  /** Stops probing and closes the shared upstream sessions. */
  async close(): Promise<void> {
    this.stopProbing();
    await Promise.all([...this.#shared.values()].map((link) => link.close()));
    await Promise.all([...this.#lists.values()].map((sources) => sources.close()));
  }

  #statusOf(spec: UpstreamSpec): UpstreamStatus {
    return this.#status.get(spec.name) as UpstreamStatus;
  }

  async #openFor(spec: UpstreamSpec, host: H): Promise<UpstreamSession> {
    const init = host.initParamsFor(spec.name);
    if (!init) throw new GatewayError('GW_ERR_NOT_INITIALIZED', 'Session not initialized');
    const session = await this.#connect(spec, init, () => host.envelopeFor(spec.name), { adopt: (created) => this.#options.adopt(created, host), hostInit: true });
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
    options: { adopt?: (session: UpstreamSession) => void; hostInit?: boolean; handlers?: UpstreamHandlers } = {},
  ): Promise<UpstreamSession> {
    const { adopt } = options;
    const status = this.#statusOf(spec);
    let session: UpstreamSession;
    try {
      session = await connectUpstream({
        spec,
        open: () => this.#options.openTransport(spec),
        handlers: options.handlers ?? this.#options.handlers,
        logger: this.#options.logger,
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
    // A retry due for an upstream a reload removed or changed since.
    if (this.#stopped || this.#status.get(spec.name)?.spec !== spec) return;
    const status = this.#statusOf(spec);
    try {
      const shared = this.#shared.get(spec.name);
      const { toolNames, ...report } = shared
        ? await shared.get().then(async (session): Promise<ProbeResult> => ({ ...probeReportOf(session), toolNames: await toolNamesOf(session) }))
        : await probeUpstream(spec, () => this.#options.openTransport(spec, 'probe'), this.#options.logger, status.era);
      if (toolNames) this.#toolNames.set(spec.name, toolNames);
      this.#succeeded(status, report);
      this.#options.metrics?.upstreamState(spec.name, true);
      this.#options.logger.log('info', `upstream '${spec.name}' is up`, { era: report.era, protocolVersion: report.protocolVersion });
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
    for (const method of listChangesOf(report.capabilities)) this.#options.listChanged(method);
  }

  /** Records a failed attempt and schedules the next probe after the backoff delay. */
  #markDown(spec: UpstreamSpec, reason: string): void {
    const status = this.#statusOf(spec);
    const delay = status.failed(reason);
    this.#options.metrics?.upstreamState(spec.name, false);
    this.#options.logger.log('warn', `upstream '${spec.name}' is down: ${status.report.error ?? ''}; retrying in ${delay} ms`);
    const timer = setTimeout(() => {
      this.#retryTimers.delete(timer);
      void this.#tryUpstream(spec);
    }, delay);
    timer.unref();
    this.#retryTimers.add(timer);
  }
}

/** What a reload changed among the upstreams, by name. */
export interface UpstreamChanges {
  added: string[];
  removed: string[];
  changed: string[];
}

/** The envelope of a list session's requests to a 2026-07-28 upstream: what its hosts declare, in the gateway's name. */
function listEnvelope(init: InitializeParams): RequestEnvelope {
  return upstreamEnvelope({ hostCapabilities: init.capabilities, hostRevision: init.protocolVersion, clientInfo: SWITCHBOARD_INFO });
}

/** The list_changed notifications for the lists an upstream offering `capabilities` adds to the merged ones. */
function listChangesOf(capabilities: unknown): string[] {
  if (!isObject(capabilities)) return [];
  return (['tools', 'prompts', 'resources'] as const).filter((list) => isObject(capabilities[list])).map((list) => `notifications/${list}/list_changed`);
}

/** The names of an open session's tools (none when it offers no tools or cannot list them). */
async function toolNamesOf(session: UpstreamSession): Promise<string[] | undefined> {
  if (!isObject(session.serverCapabilities.tools)) return undefined;
  const tools = await fetchAll(session, 'tools').catch(() => undefined);
  return tools?.flatMap((tool) => (typeof tool.name === 'string' ? [tool.name] : []));
}
