/** @module The reserved `_meta` keys of 2026-07-28 and the values some of them take. */

/** Keys a 2026-07-28 request carries in `params._meta` (the per-request envelope). */
export const REQUEST_META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
} as const;

/** The four envelope keys, in the order above. */
export const REQUEST_META_KEYS: readonly string[] = Object.values(REQUEST_META);

/** Key a result carries in `_meta` to name the server software (SHOULD on every result). */
export const SERVER_INFO_META = 'io.modelcontextprotocol/serverInfo';

/** Key every message on a `subscriptions/listen` stream carries in `_meta`: the listen request's id. */
export const SUBSCRIPTION_ID_META = 'io.modelcontextprotocol/subscriptionId';

/** The 2026-07-28 `LoggingLevel` values (RFC 5424 severities), least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value);
}

/** An `Implementation` (clientInfo, serverInfo): `name` and `version` are required, other fields pass through. */
export interface Implementation {
  name: string;
  version: string;
  [key: string]: unknown;
}
