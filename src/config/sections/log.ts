/** @module The `log` section of the config file: how the gateway writes its log on stderr. */

import { z } from 'zod';

export const logSchema = z
  .strictObject({
    format: z
      .enum(['text', 'json'])
      .default('text')
      .meta({ description: 'text: one readable line per entry (time, level, message, key=value fields). json: one JSON object per line, for log collectors.' }),
  })
  .meta({ description: 'The log the gateway writes on stderr (its level is SWITCHBOARD_LOG).' });

export type LogSettings = z.output<typeof logSchema>;
