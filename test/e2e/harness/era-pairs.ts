/**
 * @module e2e/harness/era-pairs: the four host/upstream era pairs of the era bridge (issue 5), the incident desk in
 * the era each pair needs, and what the desk's restart_service and summarize_incident must answer through them.
 */
import { restartApprovalInputParams } from '../../../examples/incident-desk/tools/restart-approval.js';
import { incidentDeskStdio, startIncidentDeskHttp, startStatelessDeskHttp, statelessDeskStdio, streamableHttpUpstream, type UpstreamEntry } from './upstreams.js';

export type HostEra = 'legacy' | 'modern';
/** The incident desk's two modes: legacy (initialize, sessions) and `--stateless` (2026-07-28 only). */
export type DeskMode = 'legacy' | 'stateless';

export interface EraPair {
  readonly pair: 1 | 2 | 3 | 4;
  readonly host: HostEra;
  readonly desk: DeskMode;
  /** e.g. "pair 4 (modern host, legacy desk)". */
  readonly label: string;
}

function pair(number: EraPair['pair'], host: HostEra, desk: DeskMode): EraPair {
  return { pair: number, host, desk, label: `pair ${number} (${host} host, ${desk === 'legacy' ? 'legacy' : '--stateless'} desk)` };
}

export const ERA_PAIRS: readonly EraPair[] = [pair(1, 'legacy', 'legacy'), pair(2, 'modern', 'stateless'), pair(3, 'legacy', 'stateless'), pair(4, 'modern', 'legacy')];

/**
 * The pairs to run: all, or those named in `ERA_PAIRS` (e.g. `ERA_PAIRS=1,3`), so the pairs that work can be run
 * alone while the others are being built.
 */
export function selectedPairs(filter: (pair: EraPair) => boolean = () => true): EraPair[] {
  const wanted = process.env.ERA_PAIRS?.split(',').map((entry) => Number(entry.trim()));
  return ERA_PAIRS.filter((entry) => filter(entry) && (wanted === undefined || wanted.includes(entry.pair)));
}

/** The desk as an upstream the gateway spawns over stdio. */
export function deskStdio(mode: DeskMode): UpstreamEntry {
  return mode === 'legacy' ? incidentDeskStdio() : statelessDeskStdio();
}

/** The desk as a Streamable HTTP server of its own; `stop` ends it. */
export async function deskHttp(mode: DeskMode): Promise<{ entry: UpstreamEntry; stop: () => Promise<void> }> {
  const desk = mode === 'legacy' ? await startIncidentDeskHttp() : await startStatelessDeskHttp();
  return { entry: streamableHttpUpstream(desk.url), stop: () => desk.stop() };
}

export const SERVICE = 'payments-api';
export const INCIDENT = 'INC-1042';
export const TICKET = 'CHG-2291';

/** The host's answers (see ../shared/vectors/incident-desk-restart.json beside the checkout). */
export const APPROVE = { action: 'accept', content: { confirm: true, ticket: TICKET } } as const;
export const DECLINE = { action: 'decline' } as const;
export const MODEL_REPLY = {
  role: 'assistant',
  content: { type: 'text', text: 'Checkout card payments fail with 502s; the ledger-db pool is saturated.' },
  model: 'e2e-model',
  stopReason: 'endTurn',
} as const;

/** What the desk answers, in either mode. */
export const RESTARTED = `RESTARTED ${SERVICE} under ${TICKET}`;
export const NOT_RESTARTED_DECLINED = `NOT RESTARTED ${SERVICE}: approval declined`;
export const SAMPLED_SUMMARY = `Summary of ${INCIDENT} (by ${MODEL_REPLY.model}):\n${MODEL_REPLY.content.text}`;

/** The approval question as the desk asks it, whatever the era (the form; `_meta` and `mode` vary by revision). */
export const APPROVAL_QUESTION = (() => {
  const { message, requestedSchema } = restartApprovalInputParams(SERVICE);
  return { message, requestedSchema };
})();

/** `params` without `_meta` (an empty or gateway-added `_meta` is no part of what the desk asked). */
export function withoutMeta(params: Record<string, unknown> | undefined): Record<string, unknown> {
  const { _meta: _ignored, ...rest } = params ?? {};
  return rest;
}
