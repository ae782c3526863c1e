/** @module The HTTP edge's settings for tests: the config's defaults, with what a test changes. */

import type { HttpSettings } from '../../../config/types.js';
import type { Logger } from '../../../core/log.js';
import { silentLogger } from '../../../core/log.js';

export const TEST_HTTP_SETTINGS: HttpSettings = {
  allowedHosts: [],
  allowedOrigins: [],
  maxBodyBytes: 65536,
  sessionIdleTimeoutMs: 0,
  maxJsonDepth: 64,
  maxSessions: 10_000,
  maxSessionsPerPrincipal: 1_000,
  maxStandIns: 256,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  maxConnections: 10_000,
};

export function testHttpSettings(overrides: Partial<HttpSettings> = {}, logger: Logger = silentLogger): HttpSettings & { logger: Logger } {
  return { ...TEST_HTTP_SETTINGS, ...overrides, logger };
}
