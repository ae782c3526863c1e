/** @module The `requestState` section: the keys that sign the era bridge's requestState handles. */

import { z } from 'zod';

import { handleKeyFromText } from '../../bridge/handle-keys.js';

export const requestStateSchema = z
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
