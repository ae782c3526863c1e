/**
 * @module Which era an upstream speaks, judged from its answer to a 2026-07-28 `server/discover` (or its
 * refusal of a legacy `initialize`), and which failures of a live session mean its era has changed.
 */

import { ProtocolError, RpcCode } from '../protocol/errors.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { SERVER_INFO_META } from '../protocol/meta-keys.js';
import { eraOf, MODERN_REVISION } from '../protocol/revisions.js';
import { TransportError } from './transport/transport.js';
import { GatewayError } from '../protocol/gateway-errors.js';
import type { DiscoverInfo } from './session.js';

/**
 * - `modern`: a `server/discover` result naming 2026-07-28;
 * - `legacy`: anything a legacy server says to a request it does not know (fall back to `initialize`;
 *   on a new connection when `fresh`, because the old one died or hangs);
 * - `retry`: a -32022 that lists 2026-07-28 after all (ask once more);
 * - `none`: the upstream speaks neither era the gateway does, or refused the probe in a way only a
 *   2026-07-28 server would (the reason says which);
 * - `unreachable`: no answer at all (network, authorization, a timeout over HTTP): the connect fails.
 */
export type ProbeVerdict =
  | { era: 'modern'; info: DiscoverInfo }
  | { era: 'legacy'; why: string; fresh: boolean }
  | { era: 'retry'; why: string }
  | { era: 'none'; why: string }
  | { era: 'unreachable'; error: unknown };

/** Judges the outcome of the `server/discover` probe: its result, or what it was rejected with. `stdio`: whether the upstream is a process of ours. */
export function judgeDiscover(outcome: { result: JsonObject } | { error: unknown }, stdio: boolean): ProbeVerdict {
  if ('result' in outcome) return judgeResult(outcome.result);
  const { error } = outcome;
  const rpc = rpcErrorOf(error);
  if (rpc) return judgeRpcError(rpc.code, rpc.message, rpc.data);
  const transport = transportErrorOf(error);
  if (transport?.status !== undefined && isRefusalStatus(transport.status)) {
    return { era: 'legacy', why: `server/discover got HTTP ${transport.status}`, fresh: false };
  }
  if (error instanceof GatewayError && error.code === 'GW_ERR_UPSTREAM_CLOSED') return { era: 'legacy', why: 'the upstream closed the connection on server/discover', fresh: true };
  if (stdio && error instanceof GatewayError && error.code === 'GW_ERR_UPSTREAM_TIMEOUT') {
    return { era: 'legacy', why: 'server/discover went unanswered', fresh: true };
  }
  return { era: 'unreachable', error };
}

function judgeResult(result: JsonObject): ProbeVerdict {
  const versions = stringsOf(result.supportedVersions);
  if (versions === undefined) return { era: 'legacy', why: 'server/discover answered without supportedVersions', fresh: false };
  if (versions.includes(MODERN_REVISION)) {
    const meta = isObject(result._meta) ? result._meta : {};
    return {
      era: 'modern',
      info: {
        capabilities: isObject(result.capabilities) ? result.capabilities : {},
        serverInfo: isObject(meta[SERVER_INFO_META]) ? meta[SERVER_INFO_META] : undefined,
        instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
      },
    };
  }
  return bySupported(versions, 'server/discover');
}

function judgeRpcError(code: number, message: string, data: unknown): ProbeVerdict {
  if (code === RpcCode.UnsupportedProtocolVersion) {
    const supported = isObject(data) ? stringsOf(data.supported) : undefined;
    if (supported === undefined) return { era: 'legacy', why: `server/discover refused: ${message}`, fresh: false };
    if (supported.includes(MODERN_REVISION)) return { era: 'retry', why: `server/discover refused ${MODERN_REVISION} yet lists it` };
    return bySupported(supported, 'the -32022 of server/discover');
  }
  if (code === RpcCode.HeaderMismatch || code === RpcCode.MissingRequiredClientCapability) {
    return { era: 'none', why: `the upstream refused server/discover as a ${MODERN_REVISION} server would: ${code} ${message}` };
  }
  return { era: 'legacy', why: `server/discover answered ${code} ${message}`, fresh: false };
}

/** A list of supported revisions without 2026-07-28: legacy if it names a legacy revision, else nothing we speak. */
function bySupported(versions: string[], source: string): ProbeVerdict {
  if (versions.some((version) => eraOf(version) === 'legacy')) return { era: 'legacy', why: `${source} lists only ${versions.join(', ')}`, fresh: false };
  return { era: 'none', why: `the upstream speaks ${versions.join(', ') || 'no revision'} (${source}); this gateway speaks ${MODERN_REVISION} and 2024-11-05 to 2025-11-25` };
}

/**
 * Whether a failed `initialize` was answered by the upstream (a JSON-RPC error, an HTTP refusal), so that
 * asking `server/discover` may tell why: a 2026-07-28 server that does not serve legacy requests refuses them
 * so. Not for timeouts, network failures, authorization, or a process that exited (a crashing upstream
 * would be started twice per attempt).
 */
export function refusedByServer(error: unknown): boolean {
  if (error instanceof ProtocolError) return true;
  const status = transportErrorOf(error)?.status;
  return status !== undefined && isRefusalStatus(status);
}

/**
 * Whether a failed request says the upstream is a 2026-07-28 server now: -32022 listing a modern
 * revision, as a JSON-RPC answer or in the body of an HTTP refusal.
 */
export function refusesLegacy(error: unknown): boolean {
  const rpc = rpcErrorOf(error) ?? transportErrorOf(error)?.rpcError;
  if (!rpc || rpc.code !== RpcCode.UnsupportedProtocolVersion) return false;
  const supported = isObject(rpc.data) ? stringsOf(rpc.data.supported) : undefined;
  return supported?.some((version) => eraOf(version) === 'modern') ?? false;
}

/**
 * Why a request's failure means the upstream no longer speaks the era its session was opened in, or
 * `undefined`. Legacy: it forgot our session (HTTP 404), or refuses legacy requests as a 2026-07-28 server
 * does. Modern: -32022 without 2026-07-28, or an HTTP refusal whose body is not a JSON-RPC answer (a legacy
 * server asking for its session id). The caller opens a new session, detecting the era again, and retries once.
 */
export function eraChangeOf(era: 'legacy' | 'modern', error: unknown): string | undefined {
  if (era === 'legacy') {
    if (error instanceof TransportError && error.sessionExpired) return 'forgot our session';
    return refusesLegacy(error) ? 'refuses legacy requests (-32022)' : undefined;
  }
  const rpc = rpcErrorOf(error);
  if (rpc) {
    if (rpc.code !== RpcCode.UnsupportedProtocolVersion) return undefined;
    const supported = isObject(rpc.data) ? stringsOf(rpc.data.supported) : undefined;
    return supported?.includes(MODERN_REVISION) ? undefined : `no longer serves ${MODERN_REVISION} (-32022)`;
  }
  const transport = transportErrorOf(error);
  return transport?.status !== undefined && isRefusalStatus(transport.status) ? `refused a ${MODERN_REVISION} request with HTTP ${transport.status}` : undefined;
}

/** 4xx answers that say "not like this" rather than "not now" or "not you". */
function isRefusalStatus(status: number): boolean {
  return status >= 400 && status < 500 && ![401, 403, 407, 408, 429].includes(status);
}

function rpcErrorOf(error: unknown): { code: number; message: string; data: unknown } | undefined {
  return error instanceof ProtocolError ? { code: error.code, message: error.message, data: error.data } : undefined;
}

/** The TransportError behind a failure (the session wraps most of them in a GatewayError). */
function transportErrorOf(error: unknown): TransportError | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; current = current.cause, depth += 1) {
    if (current instanceof TransportError) return current;
  }
  return undefined;
}

function stringsOf(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
}
