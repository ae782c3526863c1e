/** @module The `cluster` section: this instance's id among the gateways that share a PostgreSQL store, and when a silent one counts as dead. */

import { z } from 'zod';

import { duration } from './fields.js';

/** Defaults as written in the file (before durations are normalized). */
const DEFAULTS = {
  deadAfter: '15s',
  drainTimeout: '10s',
} as const;

export const clusterSchema = z
  .strictObject({
    id: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta({
        description:
          "This instance's id in a PostgreSQL store several gateways share (default: the host name, the listen address and the config file). Two live gateways cannot hold one id; a gateway restarted under its id abandons the questions it left open.",
      }),
    deadAfter: duration('A gateway instance silent this long, whose connection to PostgreSQL is gone, is dead: a survivor abandons its open questions.', 1).prefault(DEFAULTS.deadAfter),
    drainTimeout: duration('On SIGTERM, serve stops taking new host sessions and waits at most this long for the calls in flight to end; what is still open then is abandoned. 0: no waiting.', 0).prefault(DEFAULTS.drainTimeout),
  })
  .meta({ description: 'Several gateway instances on one PostgreSQL store (store.type: postgres; id and deadAfter only apply there), and how any serve drains on SIGTERM.' });
