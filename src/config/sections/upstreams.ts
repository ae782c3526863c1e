/** @module The `upstreams` section: each upstream MCP server (stdio or HTTP), with the cross-field rules between its transport keys. */

import { z } from 'zod';

import { describeValue } from '../describe-value.js';
import { custom, duration, isUrl } from './fields.js';
import { upstreamQuestionsSchema } from './questions.js';
import { authSchema } from './upstream-auth.js';
import { toolsSchema } from './upstream-tools.js';

const UPSTREAM_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_-]*$';
export const HEADER_NAME_PATTERN = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$";
const ENV_NAME_PATTERN = '^[^=\\u0000]+$';

/** Defaults as written in the file (before durations are normalized). */
const DEFAULTS = {
  sharing: 'per-session',
  lists: 'shared',
  timeout: '5m',
  connectTimeout: '30s',
  era: 'auto',
  maxRounds: 8,
} as const;

/** An upstream's name, as a key of `upstreams` (and wherever a composite names one). */
export const upstreamNameSchema = z.string().regex(new RegExp(UPSTREAM_NAME_PATTERN), {
  error: 'is not a valid upstream name (letters, digits, _ and -, starting with a letter or digit)',
});

const httpUrlSchema = z
  .string()
  .refine((text) => isUrl(text, false), { error: (issue) => `must be an http:// or https:// URL (got ${describeValue(issue.input)})` })
  .meta({ description: 'The MCP endpoint of an HTTP upstream (http or https). ${VAR} is expanded.' });

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

const upstreamSchema = z
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
    lists: z
      .enum(['shared', 'per-session'])
      .default(DEFAULTS.lists)
      .meta({
        description:
          'With sharing per-session, where a host that has made no call yet is shown the lists (tools, prompts, resources, templates) from: shared: one list session per protocol revision and declared capabilities, so listing spawns no process of the host\'s own; per-session: the host\'s own session, opened at its first list (for servers whose lists differ per session). Once a host\'s own session is open, its lists come from it either way.',
      }),
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
    if (upstream.lists === 'per-session' && upstream.sharing === 'shared') custom(ctx, 'only applies with sharing: per-session (a shared upstream has one session, whose lists every host sees)', ['lists']);
    if (upstream.era === 'modern' && transport === 'sse') custom(ctx, 'cannot be modern with transport sse (HTTP+SSE servers speak 2024-11-05)', ['era']);
  })
  .meta({ description: 'One upstream MCP server: stdio (command) or HTTP (url).', ...upstreamJsonRules });

export const upstreamsSchema = z
  .record(upstreamNameSchema, upstreamSchema)
  .refine((upstreams) => Object.keys(upstreams).length > 0, { error: 'must list at least one upstream' })
  .meta({ description: 'The upstream MCP servers by name, in priority order.', minProperties: 1 });
