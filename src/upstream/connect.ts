/**
 * @module Opens an upstream session in the era the upstream speaks: pinned by the config, remembered from
 * last time, or found by trying the hosts' era first (`initialize`: every host is legacy so far) and asking
 * `server/discover` as a 2026-07-28 request when that is refused (see docs/design/008-modern-upstreams.md).
 */

import type { UpstreamSpec } from '../config/types.js';
import type { IdSource } from '../core/clock.js';
import type { RequestEnvelope } from '../protocol/request-envelope.js';
import type { Era } from '../protocol/revisions.js';
import type { Transport } from './transport/transport.js';
import type { ProbeVerdict } from './era-probe.js';
import { judgeDiscover, refusedByServer } from './era-probe.js';
import { GatewayError } from '../protocol/gateway-errors.js';
import type { Logger } from '../core/log.js';
import type { InitializeParams, UpstreamHandlers } from './session.js';
import { UpstreamSession } from './session.js';

export interface ConnectPlan {
  spec: UpstreamSpec;
  /** A new connection to the upstream (for stdio: a new process). */
  open: () => Transport;
  handlers: UpstreamHandlers;
  logger: Logger;
  /** The era the upstream spoke when last connected, if known: it is tried first. */
  remembered: Era | undefined;
  /** What a legacy upstream is initialized with. */
  init: InitializeParams;
  /** The envelope of requests to a modern upstream that carry none of their own (the probe, lists). */
  envelope: () => RequestEnvelope;
  /** Learns each session before it connects (so a question asked during initialize finds its host). */
  adopt?: (session: UpstreamSession) => void;
  /** Numbers the sessions' keys (the gateway's own source; else each session counts alone). */
  ids?: IdSource;
}

/**
 * Connects in the right era; rejects with the reason when the upstream cannot be spoken to.
 *
 * Why `initialize` first: an upstream that serves both eras (the SDK's default, whose `server/discover`
 * names only 2026-07-28) is then spoken to in the hosts' era, and keeps what 2026-07-28 dropped
 * (resources/subscribe, pushed list changes, tools that ask mid-call); a legacy upstream costs no probe.
 * Only an upstream that refuses `initialize` is asked `server/discover`, on a new connection.
 */
export async function connectUpstream(plan: ConnectPlan): Promise<UpstreamSession> {
  const { spec, remembered } = plan;
  const setting = spec.kind === 'sse' ? 'legacy' : spec.era;
  if (setting === 'legacy') return connectLegacy(plan, create(plan));
  if (setting === 'modern') return detect(plan, { modernOnly: true });
  if (remembered === 'modern') return detect(plan, { modernOnly: false });
  const session = create(plan);
  try {
    await session.connect(plan.init);
    return session;
  } catch (error) {
    await session.close();
    if (!refusedByServer(error)) throw error;
    plan.logger.log('debug', `upstream '${spec.name}' refused initialize (${error instanceof Error ? error.message : String(error)}); asking server/discover`);
    return detect(plan, { modernOnly: false, refusedInitialize: error });
  }
}

function create(plan: ConnectPlan): UpstreamSession {
  const session = new UpstreamSession(plan.spec, plan.open(), plan.handlers, plan.logger, { envelope: plan.envelope, ...(plan.ids ? { ids: plan.ids } : {}) });
  plan.adopt?.(session);
  return session;
}

async function connectLegacy(plan: ConnectPlan, session: UpstreamSession): Promise<UpstreamSession> {
  try {
    await session.connect(plan.init);
    return session;
  } catch (error) {
    await session.close();
    throw error;
  }
}

/**
 * Asks server/discover (twice at most: a -32022 that lists 2026-07-28 is asked again once) and acts on the
 * verdict. A legacy verdict initializes, unless initialize was refused already (then that refusal is the error).
 */
async function detect(plan: ConnectPlan, how: { modernOnly: boolean; refusedInitialize?: unknown }): Promise<UpstreamSession> {
  const { spec } = plan;
  let session = create(plan);
  for (let attempt = 0; ; attempt += 1) {
    let verdict: ProbeVerdict;
    try {
      await session.start(); // a process that cannot start gives no verdict
      verdict = await probe(session, plan);
    } catch (error) {
      await session.close();
      throw error;
    }
    if (verdict.era === 'modern') {
      session.adoptModern(verdict.info);
      plan.logger.log('debug', `upstream '${spec.name}' speaks 2026-07-28`);
      return session;
    }
    if (verdict.era === 'retry' && attempt === 0) continue;
    const refused = 'refusedInitialize' in how;
    if (verdict.era === 'legacy' && !how.modernOnly && !refused) {
      plan.logger.log('debug', `upstream '${spec.name}' is legacy (${verdict.why}); initializing`);
      if (verdict.fresh || session.closed) {
        await session.close();
        session = create(plan);
      }
      return connectLegacy(plan, session);
    }
    await session.close();
    if (verdict.era === 'none') throw new GatewayError('GW_ERR_UPSTREAM_UNAVAILABLE', `upstream '${spec.name}' is unavailable: ${verdict.why}`);
    if (refused) throw how.refusedInitialize;
    if (verdict.era === 'unreachable') throw verdict.error;
    const why = verdict.era === 'legacy' ? `it is configured as era: modern, but ${verdict.why}` : verdict.why;
    throw new GatewayError('GW_ERR_UPSTREAM_UNAVAILABLE', `upstream '${spec.name}' is unavailable: ${why}`);
  }
}

async function probe(session: UpstreamSession, plan: ConnectPlan): Promise<ProbeVerdict> {
  const stdio = plan.spec.kind === 'stdio';
  try {
    return judgeDiscover({ result: await session.discover(plan.envelope()) }, stdio);
  } catch (error) {
    return judgeDiscover({ error }, stdio);
  }
}
