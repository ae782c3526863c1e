/** @module The config file format as a zod schema, assembled from one module per section (sections/): the single source of truth for validation, defaults and the JSON Schema. */

import { z } from 'zod';

import { authSchema } from './sections/auth.js';
import { compositesSchema } from './sections/composites.js';
import { policySchema } from './sections/policy.js';
import { consoleSchema } from './sections/console.js';
import { httpSchema } from './sections/http.js';
import { DEFAULT_LISTEN, listenSchema } from './sections/listen.js';
import { logSchema } from './sections/log.js';
import { namingSchema } from './sections/naming.js';
import { notifySchema } from './sections/notify.js';
import { questionsSchema } from './sections/questions.js';
import { requestStateSchema } from './sections/request-state.js';
import { retrySchema } from './sections/retry.js';
import { clusterSchema } from './sections/cluster.js';
import { custom } from './sections/fields.js';
import { storeSchema } from './sections/store.js';
import { tracingSchema } from './sections/tracing.js';
import { upstreamsSchema } from './sections/upstreams.js';

/** Page size of the list results the gateway paginates itself, when the file names none. */
const DEFAULT_PAGE_SIZE = 100;

export const configSchema = z
  .strictObject({
    listen: listenSchema.prefault(DEFAULT_LISTEN),
    upstreams: upstreamsSchema,
    naming: namingSchema.prefault({}),
    http: httpSchema.prefault({}),
    pageSize: z.int().min(1).default(DEFAULT_PAGE_SIZE).meta({ description: 'Page size of list results the gateway paginates itself.' }),
    retry: retrySchema.prefault({}),
    questions: questionsSchema.prefault({}),
    console: consoleSchema.prefault({}),
    auth: authSchema.prefault({}),
    policy: policySchema.prefault({}),
    store: storeSchema.prefault({}),
    cluster: clusterSchema.prefault({}),
    requestState: requestStateSchema.prefault({}),
    log: logSchema.prefault({}),
    tracing: tracingSchema.prefault({}),
    composites: compositesSchema.optional(),
    notify: notifySchema,
  })
  .superRefine((config, ctx) => {
    // Forwarding needs the shared store's instance records, and a handle signed on one instance must verify on another.
    if (config.cluster.advertise === undefined) return;
    if (config.store.type !== 'postgres') custom(ctx, 'only applies with store.type postgres (the instances find each other there)', ['cluster', 'advertise']);
    else if (config.requestState.keys === undefined) custom(ctx, 'needs requestState.keys: every instance signs and verifies handles with the same keys', ['cluster', 'advertise']);
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
