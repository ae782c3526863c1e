/** @module The `http` section: the endpoint hosts connect to (allowed Host and Origin values, body and JSON limits, session caps, timeouts). */

import { z } from 'zod';

import { duration, isUrl, size } from './fields.js';

/** Defaults as written in the file (before durations and sizes are normalized). */
const DEFAULTS = {
  maxBodySize: '4mb',
  sessionIdleTimeout: '30m',
  maxJsonDepth: 64,
  maxSessions: 10_000,
  maxSessionsPerPrincipal: 1_000,
  maxStandIns: 256,
  headersTimeout: '10s',
  requestTimeout: '60s',
  maxConnections: 10_000,
} as const;

export const httpSchema = z
  .strictObject({
    publicUrl: z
      .string()
      .refine((text) => isUrl(text, false) && !/[?#]/.test(text), { error: 'must be an http:// or https:// URL without query or fragment' })
      .optional()
      .meta({
        description:
          'The base URL hosts reach the gateway at (behind a proxy or balancer), e.g. https://mcp.example.com: the canonical resource URI of /mcp (the token audience) and the Protected Resource Metadata are built from it. Default: from listen.',
      }),
    allowedHosts: z
      .array(z.string().min(1))
      .default(() => [])
      .meta({ description: 'Host header values accepted besides loopback names (DNS-rebinding protection).' }),
    allowedOrigins: z
      .array(z.string().min(1))
      .default(() => [])
      .meta({ description: 'Origin header values accepted besides loopback origins.' }),
    maxBodySize: size('Largest request body accepted.').prefault(DEFAULTS.maxBodySize),
    sessionIdleTimeout: duration(
      'Host sessions (sessionful HTTP, legacy /sse, 2026-07-28 stand-ins) are closed after this long without a call in flight, an open GET or listen stream, or a message either way (0 = never).',
      0,
    ).prefault(DEFAULTS.sessionIdleTimeout),
    maxJsonDepth: z
      .int()
      .min(2)
      .max(1000)
      .default(DEFAULTS.maxJsonDepth)
      .meta({ description: 'Deepest nesting of arrays and objects accepted in any JSON the gateway reads from a host or an operator (every edge); deeper is refused.' }),
    maxSessions: z
      .int()
      .positive()
      .default(DEFAULTS.maxSessions)
      .meta({ description: 'Most host sessions at once, sessionful HTTP, legacy /sse and 2026-07-28 stand-ins together. At the cap the least recently used idle one is closed; when none is idle a new one gets 503 with Retry-After.' }),
    maxSessionsPerPrincipal: z
      .int()
      .positive()
      .default(DEFAULTS.maxSessionsPerPrincipal)
      .meta({ description: 'Most host sessions one principal, for now one client address, may hold at once (same rule at the cap as maxSessions).' }),
    maxStandIns: z
      .int()
      .positive()
      .default(DEFAULTS.maxStandIns)
      .meta({ description: 'Most stand-in sessions for 2026-07-28 hosts at once (one per principal and capability set); they count towards maxSessions too.' }),
    headersTimeout: duration('How long a client may take to send the request line and headers before the connection is closed.', 1).prefault(DEFAULTS.headersTimeout),
    requestTimeout: duration('How long a client may take to send a whole request (headers and body); a response stream held open afterwards is not affected.', 1).prefault(
      DEFAULTS.requestTimeout,
    ),
    maxConnections: z
      .int()
      .positive()
      .default(DEFAULTS.maxConnections)
      .meta({ description: 'Most TCP connections the HTTP server keeps open at once; more are refused.' }),
  })
  .meta({ description: 'Settings of the HTTP endpoint hosts connect to.' });
