/** @module The zod schemas of the live-configuration routes (GET /api/config, POST /api/config/reload): the handlers answer with them and the OpenAPI document is generated from them. */

// From @hono/zod-openapi: its z is zod extended with .openapi(), which must happen before any schema here is built.
import { z } from '@hono/zod-openapi';

export const configInfoSchema = z
  .object({
    version: z.string().describe('A digest of the settings in force (`sha256:` and 12 hex digits): equal on every instance that runs the same settings.'),
    loadedAt: z.string().describe('When these settings were loaded (ISO 8601).'),
    generation: z.number().int().describe('1 at start, one more for each reload that changed something.'),
    file: z.string().describe('The config file, as `serve --config` was given it.'),
  })
  .openapi('ConfigInfo');

const upstreamChangesSchema = z.object({
  added: z.array(z.string()).describe('Upstreams new in the file: probed, then in the catalog.'),
  removed: z.array(z.string()).describe('Upstreams gone from the file: closed; their calls ended with GW_ERR_UPSTREAM_CLOSED and their open questions abandoned.'),
  changed: z.array(z.string()).describe('Upstreams whose settings changed: closed like removed ones, then connected again.'),
});

export const reloadAppliedSchema = z
  .object({
    ok: z.literal(true),
    trigger: z.enum(['signal', 'api', 'watch']),
    changed: z.boolean().describe('False when the file says what runs already: nothing was done.'),
    config: configInfoSchema,
    upstreams: upstreamChangesSchema,
    needsRestart: z.array(z.string()).describe('Settings the file changes that only a restart applies (`store`, `http.maxBodyBytes`, ...): they run as before.'),
  })
  .openapi('ReloadApplied');

/** A refused reload as the gateway decides it; the API sends it as a CONFIG_INVALID error body carrying `config`. */
export const reloadRefusedSchema = z.object({
  ok: z.literal(false),
  trigger: z.enum(['signal', 'api', 'watch']),
  config: configInfoSchema,
  error: z.string(),
});

/** The 422 body of POST /api/config/reload: the catalogue error, and the config still in force. */
export const reloadRefusedBodySchema = z.object({
  error: z.object({ code: z.literal('CONFIG_INVALID'), message: z.string() }),
  config: configInfoSchema,
});

export type ConfigInfo = z.output<typeof configInfoSchema>;
export type ReloadAnswer = z.output<typeof reloadAppliedSchema> | z.output<typeof reloadRefusedSchema>;
