/** @module Connects to an upstream once, reads what it offers, and disconnects (startup probe and `check`). */

import type { UpstreamSpec } from '../config/types.js';
import { ProtocolError, RpcCode } from '../protocol/errors.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { upstreamEnvelope } from '../protocol/request-envelope.js';
import type { Era } from '../protocol/revisions.js';
import { LATEST_LEGACY_REVISION } from '../protocol/revisions.js';
import type { Transport } from './transport/transport.js';
import type { ListKind } from './list-all.js';
import { fetchAll } from './list-all.js';
import type { UpstreamReport } from '../ports/host-contracts.js';
import type { Logger } from '../core/log.js';
import { connectUpstream } from './connect.js';
import type { UpstreamSession } from './session.js';

export const SWITCHBOARD_INFO = { name: 'switchboard', version: '0.1.0' };

/** What a shared upstream session is promised: everything the gateway can relay to some host. */
export const RELAYABLE_CAPABILITIES: JsonObject = { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } };

export type ProbeReport = Omit<UpstreamReport, 'name' | 'transport' | 'state'>;

/** A probe's report and the names of the upstream's tools (kept by the gateway to check composites, not reported). */
export type ProbeResult = ProbeReport & { toolNames?: string[] };

const COUNTED: [ListKind, string][] = [
  ['tools', 'tools'],
  ['resources', 'resources'],
  ['resourceTemplates', 'resources'],
  ['prompts', 'prompts'],
];

/** What the probe and `check` present themselves as: no capabilities, in either era. */
const PROBE_INIT = { protocolVersion: LATEST_LEGACY_REVISION, capabilities: {}, clientInfo: SWITCHBOARD_INFO };

/**
 * Connects once (detecting the era unless `remembered` or the config says it), counts what the upstream
 * offers, and disconnects. `open` gives a new connection each time (the era probe may need a second one).
 */
export async function probeUpstream(spec: UpstreamSpec, open: () => Transport, logger: Logger, remembered?: Era): Promise<ProbeResult> {
  const session = await connectUpstream({
    spec,
    open,
    logger,
    remembered,
    init: PROBE_INIT,
    envelope: () => upstreamEnvelope({ hostCapabilities: {}, hostRevision: LATEST_LEGACY_REVISION, clientInfo: SWITCHBOARD_INFO }),
    handlers: {
      onRequest: (s, request) => (request.method === 'ping' ? s.respond(request.id, {}) : s.respondError(request.id, probeRefusal(request.method))),
      onNotification: () => undefined,
      onClose: () => undefined,
    },
  });
  try {
    const counts = { tools: 0, resources: 0, resourceTemplates: 0, prompts: 0 };
    let toolNames: string[] | undefined;
    for (const [kind, capability] of COUNTED) {
      if (!isObject(session.serverCapabilities[capability])) continue;
      const items = await fetchAll(session, kind).catch(() => []);
      counts[kind] = items.length;
      if (kind === 'tools') toolNames = items.flatMap((item) => (typeof item.name === 'string' ? [item.name] : []));
    }
    return { ...probeReportOf(session), counts, ...(toolNames ? { toolNames } : {}) };
  } finally {
    await session.close();
  }
}

function probeRefusal(method: string): ProtocolError {
  return new ProtocolError(RpcCode.MethodNotFound, `Method not found: ${method} (switchboard probe session)`);
}

/** The report of a session that is already open (without counting its lists). */
export function probeReportOf(session: UpstreamSession): ProbeReport {
  const report: ProbeReport = {
    era: session.era,
    protocolVersion: session.protocolVersion,
    serverInfo: session.serverInfo as ProbeReport['serverInfo'],
    capabilities: session.serverCapabilities,
  };
  if (session.instructions) report.instructions = session.instructions;
  return report;
}
