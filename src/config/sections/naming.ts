/** @module The `naming` section: how the tools of all upstreams share one namespace. */

import { z } from 'zod';

export const SEPARATOR_PATTERN = '^[_.-]+$';

/** Defaults as written in the file. */
const DEFAULTS = {
  strategy: 'prefix-on-conflict',
  separator: '_',
} as const;

export const namingSchema = z
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
