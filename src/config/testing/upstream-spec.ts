/** @module A Streamable HTTP upstream's spec for tests: `remote` at an address nothing listens on, one-second timeouts. */

import type { StreamableHttpUpstreamSpec } from '../types.js';

/** The upstream `remote` at port 1 of loopback (nothing listens), every setting at its plain default; `overrides` replace whole fields. */
export function httpUpstreamSpec(overrides: Partial<StreamableHttpUpstreamSpec> = {}): StreamableHttpUpstreamSpec {
  return {
    kind: 'streamable-http',
    name: 'remote',
    url: 'http://127.0.0.1:1/mcp',
    headers: {},
    sharing: 'per-session',
    lists: 'shared',
    tools: { deny: [], rename: {} },
    requestTimeoutMs: 1000,
    connectTimeoutMs: 1000,
    era: 'legacy',
    inputRequired: { maxRounds: 8, deadlineMs: 1000 },
    ...overrides,
  };
}
