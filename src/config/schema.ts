/** @module The config file format as a zod schema: the single source of truth for validation, defaults and the JSON Schema. */

import { z } from 'zod';

import { handleKeyFromText } from '../bridge/handle-keys.js';
import { COMPOSITE_DEFAULTS, ELICIT_TIMEOUT_CAP_MS } from '../composite/definition.js';
import { STEP_ID_PATTERN } from '../composite/validate.js';
import { describeValue } from './describe-value.js';
import { DURATION_PATTERN, MAX_DURATION_MS, parseDuration } from './duration.js';
import { parseListenAddress } from './listen.js';
import { SIZE_PATTERN, parseSize } from './size.js';
import { logSchema } from './sections/log.js';

export const UPSTREAM_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_-]*$';
/** Characters MCP tool names may use (1 to 128 of them). */
export const TOOL_NAME_PATTERN = '^[A-Za-z0-9_.-]{1,128}$';
export const SEPARATOR_PATTERN = '^[_.-]+$';
const HEADER_NAME_PATTERN = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$";
const ENV_NAME_PATTERN = '^[^=\\u0000]+$';

/** Defaults as written in the file (before durations and sizes are normalized). */
export const DEFAULTS = {
  listen: '127.0.0.1:3939',
  sharing: 'per-session',
  timeout: '5m',
  connectTimeout: '30s',
  strategy: 'prefix-on-conflict',
  separator: '_',
  maxBodySize: '4mb',
  sessionIdleTimeout: '30m',
  maxJsonDepth: 64,
  maxSessions: 10_000,
  maxSessionsPerPrincipal: 1_000,
  maxStandIns: 256,
  headersTimeout: '10s',
  requestTimeout: '60s',
  maxConnections: 10_000,
  samplingAnswerer: 'host',
  consentAnswerer: 'host',
  pageSize: 100,
  initialDelay: '1s',
  maxDelay: '60s',
  route: 'host-then-operator',
  questionTimeout: '5m',
  era: 'auto',
  maxRounds: 8,
  store: 'sqlite',
  storePath: 'data/switchboard.db',
  compositeInputSchema: { type: 'object' },
  compositeMaxSteps: COMPOSITE_DEFAULTS.maxSteps,
  compositeMaxForEachItems: COMPOSITE_DEFAULTS.maxForEachItems,
  compositeTotalTimeout: '30m',
  compositeToolTimeout: '60s',
  compositeElicitTimeout: '5m',
  compositeRetryCount: COMPOSITE_DEFAULTS.retryCount,
  compositeBackoff: '500ms',
  compositeConcurrency: COMPOSITE_DEFAULTS.concurrency,
} as const;

/** What an elicit step does after each outcome when the step does not say. */
export const OUTCOME_DEFAULTS = { onAccept: 'continue', onDecline: 'abort', onCancel: 'abort', onTimeout: 'abort' } as const;

/** The operator token must be long enough not to be guessed (it guards the console, REST API and /metrics). */
export const MIN_TOKEN_LENGTH = 16;

type Ctx = z.core.$RefinementCtx;

function custom(ctx: Ctx, message: string, path: (string | number)[] = []): void {
  ctx.addIssue({ code: 'custom', message, path });
}

/** Milliseconds, from a whole number or a duration string; `min` is 0 or 1 (must be positive). */
function duration(description: string, min: 0 | 1) {
  const text = z.string().regex(new RegExp(DURATION_PATTERN), { error: 'must be a duration like 500ms, 30s, 5m or 1h' });
  return z
    .union([z.int().nonnegative().max(MAX_DURATION_MS), text], {
      error: (issue) =>
        typeof issue.input === 'number'
          ? `must be a whole number of milliseconds from 0 to ${MAX_DURATION_MS}`
          : 'must be a number of milliseconds or a duration like 500ms, 30s, 5m or 1h',
    })
    .transform((value, ctx) => {
      try {
        const ms = parseDuration(value);
        if (ms < min) custom(ctx, `must be more than 0 (got ${JSON.stringify(value)})`);
        return ms;
      } catch (error) {
        custom(ctx, (error as Error).message);
        return z.NEVER;
      }
    })
    .meta({ description });
}

/** Bytes, from a whole number or a size string; must be positive. */
function size(description: string) {
  const text = z.string().regex(new RegExp(SIZE_PATTERN), { error: 'must be a size like 512kb, 4mb or 1gb' });
  return z
    .union([z.int().positive(), text], {
      error: (issue) =>
        typeof issue.input === 'number' ? 'must be a whole number of bytes, 1 or more' : 'must be a number of bytes or a size like 512kb, 4mb or 1gb',
    })
    .transform((value, ctx) => {
      try {
        const bytes = parseSize(value);
        if (bytes < 1) custom(ctx, `must be more than 0 bytes (got ${JSON.stringify(value)})`);
        return bytes;
      } catch (error) {
        custom(ctx, (error as Error).message);
        return z.NEVER;
      }
    })
    .meta({ description });
}

const listenSchema = z
  .string()
  .transform((text, ctx) => {
    try {
      return parseListenAddress(text);
    } catch (error) {
      custom(ctx, (error as Error).message);
      return z.NEVER;
    }
  })
  .meta({ description: 'Where the gateway listens for hosts: HOST:PORT, [IPv6]:PORT or :PORT (127.0.0.1). Port 0 picks a free port.' });

/** An http(s) URL; with `https`, only an https URL with a path other than `/` (what a Client ID Metadata Document URL must be). */
function isUrl(text: string, https: boolean): boolean {
  try {
    const { protocol, pathname } = new URL(text);
    return https ? protocol === 'https:' && pathname !== '/' : protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

const httpUrlSchema = z
  .string()
  .refine((text) => isUrl(text, false), { error: (issue) => `must be an http:// or https:// URL (got ${describeValue(issue.input)})` })
  .meta({ description: 'The MCP endpoint of an HTTP upstream (http or https). ${VAR} is expanded.' });

const toolsSchema = z
  .strictObject({
    allow: z
      .array(z.string().min(1))
      .optional()
      .meta({ description: 'When set, only these tools (by original name) are exposed.' }),
    deny: z
      .array(z.string().min(1))
      .default(() => [])
      .meta({ description: 'Tools (by original name) that are never exposed.' }),
    rename: z
      .record(
        z.string().min(1),
        z.string().regex(new RegExp(TOOL_NAME_PATTERN), { error: 'must be a tool name of 1 to 128 letters, digits, _, - or .' }),
      )
      .default(() => ({}))
      .meta({ description: 'Original tool name -> exposed name, applied before the naming strategy.' }),
  })
  .superRefine((tools, ctx) => {
    const allow = tools.allow === undefined ? undefined : new Set(tools.allow);
    const deny = new Set(tools.deny);
    tools.deny.forEach((name, index) => {
      if (allow?.has(name)) custom(ctx, `"${name}" is also in tools.allow (list it in one or the other)`, ['deny', index]);
    });
    // Exposed name -> the original tool that gets it, for the names known from the config itself.
    const exposedBy = new Map<string, string>();
    for (const name of tools.allow ?? []) if (!(name in tools.rename) && !deny.has(name)) exposedBy.set(name, name);
    for (const [original, exposed] of Object.entries(tools.rename)) {
      const path = ['rename', original];
      if (deny.has(original)) custom(ctx, `renames "${original}", which tools.deny hides`, path);
      else if (allow !== undefined && !allow.has(original)) custom(ctx, `renames "${original}", which is not in tools.allow`, path);
      else {
        const holder = exposedBy.get(exposed);
        if (holder !== undefined && holder !== original) custom(ctx, `"${exposed}" is already the exposed name of tool "${holder}"`, path);
        else exposedBy.set(exposed, original);
      }
    }
  })
  .meta({ description: 'Which tools of this upstream are exposed, and under which names.' });

const routeSchema = z
  .enum(['host', 'host-then-operator', 'operator', 'both'])
  .meta({
    description:
      'Who answers questions (elicitation, sampling, roots): host (the host only; cancel if it cannot), host-then-operator (the host when it can receive the question, else an operator), operator (always a person), both (first answer wins).',
  });

/** Per-upstream and per-tool question settings: each field falls back to the level above. */
const questionOverrideSchema = z
  .strictObject({
    route: routeSchema.optional(),
    timeout: duration('How long a question may wait for an answer before it expires (the upstream gets cancel).', 1).optional(),
  })
  .meta({ description: 'Question routing for one tool of this upstream (falls back to the upstream, then the gateway).' });

const upstreamQuestionsSchema = z
  .strictObject({
    route: routeSchema.optional(),
    timeout: duration('How long a question may wait for an answer before it expires (the upstream gets cancel).', 1).optional(),
    tools: z
      .record(z.string().min(1), questionOverrideSchema)
      .optional()
      .meta({ description: 'Per tool (by the upstream\'s own tool name): route and timeout for questions asked during its calls.' }),
  })
  .meta({ description: 'Question routing for this upstream (falls back to the gateway-wide questions settings).' });

/** How a legacy host's call to a 2026-07-28 upstream that answers `input_required` is carried through (the gateway asks, then retries). */
const inputRequiredSchema = z
  .strictObject({
    maxRounds: z
      .int()
      .min(1)
      .max(100)
      .default(DEFAULTS.maxRounds)
      .meta({ description: 'How many times one call may answer input_required before the gateway gives up (the call then fails, naming the reason).' }),
    deadline: duration(
      'Total time one call may take upstream across all its rounds (default: the upstream\'s timeout); the clock stops while a question is open.',
      1,
    ).optional(),
  })
  .meta({ description: 'The retry loop the gateway runs for a legacy host when this upstream (2026-07-28) answers tools/call, prompts/get or resources/read with input_required.' });

/** Where the authorization server sends the code back; nothing listens there yet (docs/design/004-upstream-oauth.md). */
const DEFAULT_REDIRECT_URL = 'http://127.0.0.1/oauth/callback';

const authSchema = z
  .strictObject({
    type: z.enum(['oauth']).meta({ description: 'oauth: OAuth 2.1 as the MCP authorization spec describes (the only kind so far).' }),
    clientId: z.string().min(1).optional().meta({ description: 'A client id registered with the authorization server beforehand (else: client metadata URL or dynamic registration). ${VAR} is expanded.' }),
    clientSecret: z.string().min(1).optional().meta({ description: 'The secret of clientId, for a confidential client. ${VAR} is expanded.' }),
    clientMetadataUrl: z
      .string()
      .refine((text) => isUrl(text, true), { error: (issue) => `must be an https:// URL with a path (got ${describeValue(issue.input)})` })
      .optional()
      .meta({ description: 'URL of a Client ID Metadata Document, used as client id when the authorization server supports it. ${VAR} is expanded.' }),
    scope: z.string().min(1).optional().meta({ description: 'Scopes to ask for when the upstream\'s challenge names none (space-separated). ${VAR} is expanded.' }),
    redirectUrl: z
      .string()
      .refine((text) => isUrl(text, false), { error: (issue) => `must be an http:// or https:// URL (got ${describeValue(issue.input)})` })
      .default(DEFAULT_REDIRECT_URL)
      .meta({ description: 'The redirect URI registered with the authorization server; the code is taken from the redirect to it. ${VAR} is expanded.' }),
  })
  .superRefine((auth, ctx) => {
    if (auth.clientSecret !== undefined && auth.clientId === undefined) custom(ctx, 'needs clientId (a secret belongs to a pre-registered client)', ['clientSecret']);
  })
  .meta({ description: 'How the gateway authorizes with this upstream (streamable-http only). Without it, an upstream asking for authorization fails to connect.' });

const STDIO_ONLY = ['args', 'env', 'cwd'] as const;

/** Extra JSON Schema rules for editors; the same rules are enforced by the refinement below. */
const upstreamJsonRules = {
  oneOf: [{ required: ['command'] }, { required: ['url'] }],
  dependentRequired: { args: ['command'], env: ['command'], cwd: ['command'], headers: ['url'], auth: ['url'] },
  allOf: [
    { if: { required: ['transport'], properties: { transport: { const: 'stdio' } } }, then: { required: ['command'] } },
    { if: { required: ['transport'], properties: { transport: { enum: ['streamable-http', 'sse'] } } }, then: { required: ['url'] } },
    { if: { required: ['transport'], properties: { transport: { const: 'sse' } } }, then: { not: { required: ['auth'] } } },
  ],
};

export const upstreamSchema = z
  .strictObject({
    command: z.string().min(1).optional().meta({ description: 'Program to spawn for a stdio upstream.' }),
    args: z.array(z.string()).optional().meta({ description: 'Arguments of command (stdio only; default none). ${VAR} is expanded.' }),
    env: z
      .record(z.string().regex(new RegExp(ENV_NAME_PATTERN), { error: 'is not a valid environment variable name' }), z.string())
      .optional()
      .meta({ description: 'Extra environment variables for the process (stdio only). ${VAR} is expanded.' }),
    cwd: z.string().min(1).optional().meta({ description: 'Working folder of the process (stdio only), relative to the config file.' }),
    url: httpUrlSchema.optional(),
    transport: z
      .enum(['stdio', 'streamable-http', 'sse'])
      .optional()
      .meta({ description: 'stdio (needs command), streamable-http or sse (need url). Default: stdio with command, streamable-http with url.' }),
    headers: z
      .record(
        z.string().regex(new RegExp(HEADER_NAME_PATTERN), { error: 'is not a valid HTTP header name' }),
        z.string().refine((value) => !/[\r\n\0]/.test(value), { error: 'must not contain line breaks or NUL' }),
      )
      .optional()
      .meta({ description: 'Extra HTTP headers sent to the upstream (HTTP only). ${VAR} is expanded.' }),
    auth: authSchema.optional(),
    sharing: z
      .enum(['per-session', 'shared'])
      .default(DEFAULTS.sharing)
      .meta({ description: 'per-session: one upstream connection per host session; shared: one for all.' }),
    tools: toolsSchema.prefault({}),
    timeout: duration('How long a forwarded request may wait for the upstream.', 1).prefault(DEFAULTS.timeout),
    connectTimeout: duration('How long connecting and initializing may take.', 1).prefault(DEFAULTS.connectTimeout),
    questions: upstreamQuestionsSchema.optional(),
    era: z
      .enum(['auto', 'legacy', 'modern'])
      .default(DEFAULTS.era)
      .meta({
        description:
          'Which protocol era to speak: auto (initialize first, the hosts\' era; server/discover when initialize is refused; the verdict is remembered and checked again when the upstream changes), legacy (initialize only, 2024-11-05 to 2025-11-25), modern (server/discover only: 2026-07-28, no sessions).',
      }),
    inputRequired: inputRequiredSchema.prefault({}),
  })
  .superRefine((upstream, ctx) => {
    const { command, url, transport } = upstream;
    if (command !== undefined && url !== undefined) {
      custom(ctx, 'has both command and url (use command for a stdio upstream or url for an HTTP one)');
      return;
    }
    if (command === undefined && url === undefined) {
      custom(ctx, 'needs command (stdio) or url (streamable-http, sse)');
      return;
    }
    if (transport === 'stdio' && command === undefined) custom(ctx, 'is stdio, which needs command instead of url', ['transport']);
    if (transport !== undefined && transport !== 'stdio' && url === undefined) {
      custom(ctx, `is ${transport}, which needs url instead of command`, ['transport']);
    }
    if (url !== undefined) {
      for (const key of STDIO_ONLY) if (upstream[key] !== undefined) custom(ctx, 'only applies to stdio upstreams (with command)', [key]);
    }
    if (command !== undefined && upstream.headers !== undefined) custom(ctx, 'only applies to HTTP upstreams (with url)', ['headers']);
    if (upstream.auth !== undefined && command !== undefined) custom(ctx, 'only applies to HTTP upstreams (with url)', ['auth']);
    else if (upstream.auth !== undefined && transport === 'sse') custom(ctx, 'only applies to streamable-http upstreams (legacy HTTP+SSE servers predate MCP authorization)', ['auth']);
    if (upstream.era === 'modern' && transport === 'sse') custom(ctx, 'cannot be modern with transport sse (HTTP+SSE servers speak 2024-11-05)', ['era']);
  })
  .meta({ description: 'One upstream MCP server: stdio (command) or HTTP (url).', ...upstreamJsonRules });

const upstreamsSchema = z
  .record(
    z.string().regex(new RegExp(UPSTREAM_NAME_PATTERN), {
      error: 'is not a valid upstream name (letters, digits, _ and -, starting with a letter or digit)',
    }),
    upstreamSchema,
  )
  .refine((upstreams) => Object.keys(upstreams).length > 0, { error: 'must list at least one upstream' })
  .meta({ description: 'The upstream MCP servers by name, in priority order.', minProperties: 1 });

const namingSchema = z
  .strictObject({
    strategy: z
      .enum(['prefix-on-conflict', 'prefix', 'priority', 'manual'])
      .default(DEFAULTS.strategy)
      .meta({ description: 'How tool names from different upstreams are kept apart.' }),
    separator: z
      .string()
      .regex(new RegExp(SEPARATOR_PATTERN), { error: 'must be one or more of the characters _ - .' })
      .default(DEFAULTS.separator)
      .meta({ description: 'Goes between the upstream name and the tool name when prefixing.' }),
  })
  .meta({ description: 'How the tools of all upstreams share one namespace.' });

const httpSchema = z
  .strictObject({
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

const retrySchema = z
  .strictObject({
    initialDelay: duration('First wait before restarting an upstream that failed to start.', 1).prefault(DEFAULTS.initialDelay),
    maxDelay: duration('Longest wait between restarts (the wait doubles up to this).', 1).prefault(DEFAULTS.maxDelay),
  })
  .superRefine((retry, ctx) => {
    if (retry.initialDelay > retry.maxDelay) {
      custom(ctx, `must not be longer than maxDelay (${retry.initialDelay}ms > ${retry.maxDelay}ms)`, ['initialDelay']);
    }
  })
  .meta({ description: 'Backoff for upstreams that failed to start.' });

const questionsSchema = z
  .strictObject({
    route: routeSchema.default(DEFAULTS.route),
    timeout: duration('How long a question may wait for an answer before it expires (the upstream gets cancel).', 1).prefault(DEFAULTS.questionTimeout),
    sampling: z
      .enum(['host', 'operator'])
      .default(DEFAULTS.samplingAnswerer)
      .meta({
        description:
          'host: an upstream is promised sampling and roots only when the host declared them. operator: sampling is also promised for hosts that cannot sample, and an operator types the reply.',
      }),
    consent: z
      .enum(['host', 'operator'])
      .default(DEFAULTS.consentAnswerer)
      .meta({
        description:
          'host: consent questions (URL mode, password-like fields, a lone approval) go to the host whenever it can take them. operator: they always go to an operator (for autonomous hosts with no person behind them).',
      }),
  })
  .meta({ description: 'What happens to the questions upstreams ask back: who answers, and how long they wait.' });

const consoleSchema = z
  .strictObject({
    enabled: z.boolean().default(true).meta({ description: 'Serve the operator console, REST API and /metrics with `serve`.' }),
    token: z
      .string()
      .min(MIN_TOKEN_LENGTH, { error: `must be at least ${MIN_TOKEN_LENGTH} characters` })
      .refine((value) => !/\s/.test(value), { error: 'must not contain whitespace' })
      .optional()
      .meta({
        description:
          'The operator token (Bearer) for the console, REST API and /metrics. ${VAR} is expanded; SWITCHBOARD_CONSOLE_TOKEN is used when unset. Required when listening on a non-loopback address; on loopback one is generated into data/operator-token (mode 600; never printed).',
      }),
  })
  .meta({ description: 'The operator surfaces: web console at /console, REST API at /api, /metrics.' });

const storeSchema = z
  .strictObject({
    type: z
      .enum(['sqlite', 'memory'])
      .default(DEFAULTS.store)
      .meta({ description: 'sqlite: durable questions and audit in one file (default); memory: nothing survives a restart.' }),
    path: z
      .string()
      .min(1)
      .default(DEFAULTS.storePath)
      .meta({ description: 'The SQLite file (sqlite only), relative to the config file; its folder is created on first start.' }),
  })
  .meta({ description: 'Where questions and their audit trail are kept.' });

const requestStateSchema = z
  .strictObject({
    keys: z
      .array(
        z.string().superRefine((value, ctx) => {
          const read = handleKeyFromText(value);
          if (!read.ok) ctx.addIssue({ code: 'custom', message: read.reason });
        }),
      )
      .min(1)
      .optional()
      .meta({
        description:
          'Keys that sign the requestState handles 2026-07-28 hosts get (at least 32 random bytes, base64 or hex; ${VAR} is expanded). The first signs, all verify: add a new key first to rotate, drop the old one after the longest question timeout. Unset: `serve` generates one into data/request-state-key (mode 600).',
      }),
  })
  .meta({ description: 'The signed requestState handles of the era bridge (2026-07-28 hosts).' });


/** A step's tool: `<upstream>.<tool>`, split at the first dot (upstream names have none). */
export const STEP_TOOL_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_-]*\\.[^\\s]+$';

/** A JSON Schema given inline: a map (its content is checked when the composite is validated). */
function jsonSchemaMap(description: string) {
  return z.record(z.string(), z.unknown()).meta({ description });
}

const outcomeSchema = (outcome: keyof typeof OUTCOME_DEFAULTS, what: string) =>
  z
    .enum(['continue', 'abort', 'skip-remaining'])
    .optional()
    .meta({
      description: `What happens when ${what} (elicit steps; default ${OUTCOME_DEFAULTS[outcome]}): continue, abort (the composite returns an isError result naming who answered what) or skip-remaining (no later step runs; the composite returns what it has).`,
    });

/** The keys a step of every kind may have, besides dependsOn and forEach (which only top-level steps have). */
const stepShape = {
  id: z
    .string()
    .regex(new RegExp(STEP_ID_PATTERN), { error: 'must be letters, digits, _ and -, starting with a letter or _ (templates name it as steps.<id>)' })
    .meta({ description: 'Names the step: unique in the composite; dependsOn and templates (steps.<id>) refer to it.' }),
  condition: z
    .string()
    .min(1)
    .optional()
    .meta({ description: 'A template; the step is skipped when it renders false, "", 0, null, an empty list or "false".' }),
  tool: z
    .string()
    .regex(new RegExp(STEP_TOOL_PATTERN), { error: 'must be <upstream>.<tool>, like desk.restart_service' })
    .optional()
    .meta({ description: 'A tool step: the upstream tool to call, as <upstream>.<tool> (the tool as the upstream names it).' }),
  arguments: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({ description: 'Tool steps: the tool\'s arguments (default {}); strings are templates over input and earlier steps.' }),
  retry: z
    .strictObject({
      count: z.int().min(0).max(10).default(DEFAULTS.compositeRetryCount).meta({ description: 'Attempts after the first, 0 to 10.' }),
      backoff: duration('Wait before the first retry; it doubles for each next one.', 0).prefault(DEFAULTS.compositeBackoff),
    })
    .optional()
    .meta({ description: 'Tool steps: how often a failed call is tried again, and the wait between tries.' }),
  resource: z
    .strictObject({
      upstream: z
        .string()
        .regex(new RegExp(UPSTREAM_NAME_PATTERN), { error: 'is not a valid upstream name (letters, digits, _ and -, starting with a letter or digit)' })
        .meta({ description: 'The upstream to read from (as named under upstreams).' }),
      uri: z.string().min(1).meta({ description: 'The resource URI, a template.' }),
    })
    .optional()
    .meta({ description: 'A resource step: reads a resource of an upstream (resources/read).' }),
  timeout: duration(
    `Tool and resource steps: how long one attempt may take (default ${DEFAULTS.compositeToolTimeout}). Elicit steps: how long the question waits (default ${DEFAULTS.compositeElicitTimeout}; more than ${ELICIT_TIMEOUT_CAP_MS / 60_000}m is cut to ${ELICIT_TIMEOUT_CAP_MS / 60_000}m, with a logged warning).`,
    1,
  ).optional(),
  elicit: z
    .strictObject({
      message: z.string().min(1).meta({ description: 'The question, a template.' }),
      requestedSchema: jsonSchemaMap('The form of the answer: a flat JSON Schema object; its strings are templates.'),
    })
    .optional()
    .meta({ description: 'An elicit step: asks a person (the host, or an operator in the console, per the question route).' }),
  onAccept: outcomeSchema('onAccept', 'the question is answered (accept)'),
  onDecline: outcomeSchema('onDecline', 'the person declines'),
  onCancel: outcomeSchema('onCancel', 'the question is cancelled (dismissed)'),
  onTimeout: outcomeSchema('onTimeout', 'nobody answers in time'),
};

const { id: stepIdSchema, ...stepKeysAfterId } = stepShape;

const TOOL_ONLY = ['arguments', 'retry'] as const;
const ELICIT_ONLY = ['onAccept', 'onDecline', 'onCancel', 'onTimeout'] as const;

/** No key of another kind than the one the step is (the caller made sure it is one). */
function refineStepKind(step: { [K in keyof typeof stepShape]?: unknown } & { forEach?: unknown }, ctx: Ctx): void {
  const kinds = (['tool', 'resource', 'elicit', 'forEach'] as const).filter((kind) => step[kind] !== undefined);
  if (kinds.length > 1) {
    custom(ctx, `cannot be with ${kinds[0]} (a step is one of tool, resource, elicit or forEach)`, [kinds[1] as string]);
    return;
  }
  const kind = kinds[0];
  if (kind !== 'tool') for (const key of TOOL_ONLY) if (step[key] !== undefined) custom(ctx, 'only applies to tool steps', [key]);
  if (kind !== 'elicit') for (const key of ELICIT_ONLY) if (step[key] !== undefined) custom(ctx, 'only applies to elicit steps', [key]);
  if (kind === 'forEach' && step.timeout !== undefined) custom(ctx, 'does not apply to forEach steps (set it on forEach.step)', ['timeout']);
}

const innerStepSchema = z
  .strictObject({
    id: stepIdSchema.optional().meta({ description: "Names the step in the run record (default: the forEach step's id)." }),
    ...stepKeysAfterId,
  })
  .superRefine((step, ctx) => {
    if (step.tool === undefined && step.resource === undefined && step.elicit === undefined) custom(ctx, 'needs one of tool, resource or elicit');
    else refineStepKind(step, ctx);
  })
  .meta({
    description: 'The tool, resource or elicit step run for each item; its templates also see item and index. No dependsOn, no forEach.',
    oneOf: [{ required: ['tool'] }, { required: ['resource'] }, { required: ['elicit'] }],
  });

const stepSchema = z
  .strictObject({
    id: stepIdSchema,
    dependsOn: z
      .array(z.string().min(1))
      .default(() => [])
      .meta({ description: 'Ids of steps that must have finished (or been skipped) first; steps with no path between them run in parallel.' }),
    ...stepKeysAfterId,
    forEach: z
      .strictObject({
        items: z.string().min(1).meta({ description: 'A template that renders a list (from input or an earlier step).' }),
        concurrency: z.int().min(1).default(DEFAULTS.compositeConcurrency).meta({ description: 'How many items run at once.' }),
        step: innerStepSchema,
      })
      .optional()
      .meta({ description: 'A forEach step: runs its step once per item of a list; its output is the list of their outputs.' }),
  })
  .superRefine((step, ctx) => {
    if (step.tool === undefined && step.resource === undefined && step.elicit === undefined && step.forEach === undefined) {
      custom(ctx, 'needs one of tool, resource, elicit or forEach');
    }
    else refineStepKind(step, ctx);
  })
  .meta({
    description: 'One step: exactly one of tool, resource, elicit and forEach.',
    oneOf: [{ required: ['tool'] }, { required: ['resource'] }, { required: ['elicit'] }, { required: ['forEach'] }],
  });

const compositeSchema = z
  .strictObject({
    description: z.string().min(1).meta({ description: 'What the tool does, for hosts and models.' }),
    inputSchema: jsonSchemaMap('The JSON Schema (type: object) of the tool\'s arguments; templates see them as input.').default(() => ({
      ...DEFAULTS.compositeInputSchema,
    })),
    outputSchema: jsonSchemaMap('When set, the tool\'s outputSchema (type: object); needs output.').optional(),
    output: z
      .unknown()
      .refine((value) => value !== null, { error: 'must not be empty' })
      .optional()
      .meta({ description: 'A template (string, map or list) rendered after the last step; it sees input and every step. Its value is the result.' }),
    limits: z
      .strictObject({
        maxSteps: z.int().min(1).default(DEFAULTS.compositeMaxSteps).meta({ description: 'Most steps in the composite (a forEach counts as one).' }),
        maxForEachItems: z.int().min(1).default(DEFAULTS.compositeMaxForEachItems).meta({ description: 'Most items one forEach runs; a longer list fails the step.' }),
        totalTimeout: duration('The whole run, from call to result.', 1).prefault(DEFAULTS.compositeTotalTimeout),
      })
      .prefault({})
      .meta({ description: 'Caps of one run.' }),
    steps: z
      .array(stepSchema)
      .refine((steps) => steps.length > 0, { error: 'must list at least one step' })
      .meta({ description: 'The steps, in any order; dependsOn orders them.', minItems: 1 }),
  })
  .meta({ description: 'One composite tool.' });

const compositesMapSchema = z
  .record(z.string().regex(new RegExp(TOOL_NAME_PATTERN), { error: 'is not a valid tool name (1 to 128 letters, digits, _, - or .)' }), compositeSchema)
  .meta({ description: 'Composite tools by name (the name hosts see).' });

const compositesSchema = z
  .union([z.string().min(1).meta({ description: 'A YAML file, relative to this one, holding the map of composites.' }), compositesMapSchema], {
    error: 'must be a map of composite tools or the path of a YAML file holding one',
  })
  .meta({ description: 'Composite tools: workflows over upstream tools and questions, each exposed as one tool. A map, or the path of a YAML file holding it.' });

export const configSchema = z
  .strictObject({
    listen: listenSchema.prefault(DEFAULTS.listen),
    upstreams: upstreamsSchema,
    naming: namingSchema.prefault({}),
    http: httpSchema.prefault({}),
    pageSize: z.int().min(1).default(DEFAULTS.pageSize).meta({ description: 'Page size of list results the gateway paginates itself.' }),
    retry: retrySchema.prefault({}),
    questions: questionsSchema.prefault({}),
    console: consoleSchema.prefault({}),
    store: storeSchema.prefault({}),
    requestState: requestStateSchema.prefault({}),
    log: logSchema.prefault({}),
    composites: compositesSchema.optional(),
  })
  .meta({
    title: 'Switchboard configuration',
    description:
      'The config file of the Switchboard MCP gateway (switchboard.yaml). Durations are milliseconds or strings like 500ms, 30s, 5m, 1h; sizes are bytes or strings like 64kb, 4mb.',
  });

/** The file as written (what the JSON Schema describes). */
export type ConfigFile = z.input<typeof configSchema>;
/** The file after validation: defaults filled in, durations in ms, sizes in bytes, listen split. */
export type ParsedConfigFile = z.output<typeof configSchema>;
