/** @module The 2026-07-28 per-request `_meta` envelope: detect it, parse and check it, build it for an upstream, strip it. */

import type { JsonObject, JsonRpcErrorObject } from './jsonrpc.js';
import { isObject } from './jsonrpc.js';
import type { Implementation, LogLevel } from './meta-keys.js';
import { isLogLevel, REQUEST_META, REQUEST_META_KEYS } from './meta-keys.js';
import { invalidParamsError, unsupportedVersionError } from './modern-errors.js';
import { modernClientCapabilities } from './modern-client-capabilities.js';
import type { ModernRevision } from './revisions.js';
import { isModernRevision, MODERN_REVISION, SUPPORTED_REVISIONS } from './revisions.js';

/** What a modern request says about itself. `progressToken` is not part of it: it stays where it is. */
export interface RequestEnvelope {
  protocolVersion: string;
  /** `{}` means no optional capability. Never inferred from an earlier request. */
  clientCapabilities: JsonObject;
  clientInfo?: Implementation;
  /** Absent: no `notifications/message` may be sent for this request. */
  logLevel?: LogLevel;
}

export type EnvelopeParse = { ok: true; envelope: RequestEnvelope } | { ok: false; error: JsonRpcErrorObject };

function metaOf(params: unknown): JsonObject | undefined {
  return isObject(params) && isObject(params._meta) ? params._meta : undefined;
}

/** Whether `params._meta` holds any envelope key: the request speaks the modern era (well or badly). */
export function hasRequestEnvelope(params: unknown): boolean {
  const meta = metaOf(params);
  return meta !== undefined && REQUEST_META_KEYS.some((key) => Object.hasOwn(meta, key));
}

/** The envelope's protocol version when it is a string, else `undefined` (for the header comparison). */
export function envelopeProtocolVersion(params: unknown): string | undefined {
  const version = metaOf(params)?.[REQUEST_META.protocolVersion];
  return typeof version === 'string' ? version : undefined;
}

/**
 * Reads and checks the envelope of a modern request. A missing or ill-typed key is -32602 (the spec:
 * a request without a required key is malformed), naming the key in `data.field`; a version this
 * gateway does not serve in the modern era is -32022 listing `advertised`. Never throws.
 */
export function parseRequestEnvelope(params: unknown, advertised: readonly string[] = SUPPORTED_REVISIONS): EnvelopeParse {
  const meta = metaOf(params);
  const field = (key: string): string => `_meta.${key}`;
  if (meta === undefined) return fail(invalidParamsError('_meta', 'A 2026-07-28 request needs params._meta with the protocol version and client capabilities'));
  const version = meta[REQUEST_META.protocolVersion];
  if (typeof version !== 'string' || version.length === 0) {
    return fail(invalidParamsError(field(REQUEST_META.protocolVersion), `${REQUEST_META.protocolVersion} is required and must be a string`));
  }
  if (!isModernRevision(version)) return fail(unsupportedVersionError(version, advertised));
  const capabilities = meta[REQUEST_META.clientCapabilities];
  if (!isObject(capabilities)) {
    return fail(invalidParamsError(field(REQUEST_META.clientCapabilities), `${REQUEST_META.clientCapabilities} is required and must be an object`));
  }
  const envelope: RequestEnvelope = { protocolVersion: version, clientCapabilities: capabilities };
  if (Object.hasOwn(meta, REQUEST_META.clientInfo)) {
    const info = meta[REQUEST_META.clientInfo];
    if (!isObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string') {
      return fail(invalidParamsError(field(REQUEST_META.clientInfo), `${REQUEST_META.clientInfo} must be an object with a string name and version`));
    }
    envelope.clientInfo = info as Implementation;
  }
  if (Object.hasOwn(meta, REQUEST_META.logLevel)) {
    const level = meta[REQUEST_META.logLevel];
    if (!isLogLevel(level)) return fail(invalidParamsError(field(REQUEST_META.logLevel), `${REQUEST_META.logLevel} must be a logging level`));
    envelope.logLevel = level;
  }
  const token = meta.progressToken;
  if (token !== undefined && typeof token !== 'string' && !(typeof token === 'number' && Number.isInteger(token))) {
    return fail(invalidParamsError('_meta.progressToken', 'progressToken must be a string or an integer'));
  }
  return { ok: true, envelope };
}

function fail(error: JsonRpcErrorObject): EnvelopeParse {
  return { ok: false, error };
}

/** The `_meta` members of an envelope (optional ones only when set). */
export function envelopeMeta(envelope: RequestEnvelope): JsonObject {
  const meta: JsonObject = {
    [REQUEST_META.protocolVersion]: envelope.protocolVersion,
    [REQUEST_META.clientCapabilities]: envelope.clientCapabilities,
  };
  if (envelope.clientInfo !== undefined) meta[REQUEST_META.clientInfo] = envelope.clientInfo;
  if (envelope.logLevel !== undefined) meta[REQUEST_META.logLevel] = envelope.logLevel;
  return meta;
}

/**
 * The envelope a request to a modern upstream carries on behalf of one host: the host's relayable
 * capabilities in 2026 form ({@link modernClientCapabilities}), the client info the gateway presents,
 * and the host's log level, if it set one.
 */
export function upstreamEnvelope(input: {
  hostCapabilities: unknown;
  hostRevision: string;
  clientInfo?: Implementation;
  logLevel?: LogLevel;
  protocolVersion?: ModernRevision;
}): RequestEnvelope {
  const envelope: RequestEnvelope = {
    protocolVersion: input.protocolVersion ?? MODERN_REVISION,
    clientCapabilities: modernClientCapabilities(input.hostCapabilities, input.hostRevision),
  };
  if (input.clientInfo !== undefined) envelope.clientInfo = input.clientInfo;
  if (input.logLevel !== undefined) envelope.logLevel = input.logLevel;
  return envelope;
}

/** A copy of `params` whose `_meta` carries `envelope` (any previous envelope keys replaced; progressToken, traceparent… kept). */
export function withRequestEnvelope(params: JsonObject | undefined, envelope: RequestEnvelope): JsonObject {
  const base = stripRequestEnvelope(params) ?? {};
  const meta = isObject(base._meta) ? base._meta : {};
  return { ...base, _meta: { ...meta, ...envelopeMeta(envelope) } };
}

/**
 * A copy of `params` without the envelope keys, for a legacy upstream; other `_meta` keys stay, and
 * `_meta` goes when nothing is left in it. The input is not changed.
 */
export function stripRequestEnvelope(params: JsonObject | undefined): JsonObject | undefined {
  if (params === undefined || !isObject(params._meta)) return params;
  const meta: JsonObject = { ...params._meta };
  for (const key of REQUEST_META_KEYS) delete meta[key];
  const out: JsonObject = { ...params };
  if (Object.keys(meta).length === 0) delete out._meta;
  else out._meta = meta;
  return out;
}
