/** @module The `console` section: the operator surfaces (web console, REST API, /metrics) and their token. */

import { z } from 'zod';

/** The operator token must be long enough not to be guessed (it guards the console, REST API and /metrics). */
export const MIN_TOKEN_LENGTH = 16;

export const consoleSchema = z
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
