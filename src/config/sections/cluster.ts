/** @module The `cluster` section: this instance's id among the gateways that share a PostgreSQL store, how the others reach it (advertise, secret), and when a silent one counts as dead. */

import { z } from 'zod';

import { custom, duration } from './fields.js';

/** Where the cluster secret comes from when `cluster.secret` is not in the file. */
export const CLUSTER_SECRET_ENV = 'SWITCHBOARD_CLUSTER_SECRET';

/** The shortest cluster secret accepted: it signs every request one instance forwards to another. */
export const MIN_CLUSTER_SECRET_LENGTH = 32;

/** Defaults as written in the file (before durations are normalized). */
const DEFAULTS = {
  deadAfter: '15s',
  drainTimeout: '10s',
} as const;

/** An http(s) URL without credentials, query or fragment: where the other instances reach this one. */
function isAdvertiseUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '' && url.search === '' && url.hash === '';
  } catch {
    return false;
  }
}

export const clusterSchema = z
  .strictObject({
    id: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta({
        description:
          "This instance's id in a PostgreSQL store several gateways share (default: the host name, the listen address and the config file); ${VAR} is expanded. Two live gateways cannot hold one id; a gateway restarted under its id abandons the questions it left open.",
      }),
    advertise: z
      .string()
      .refine(isAdvertiseUrl, { error: 'must be an http:// or https:// URL without credentials, query or fragment' })
      .optional()
      .meta({
        description:
          'The base URL the other instances reach this one at (postgres only), e.g. http://10.0.0.11:8080; ${VAR} is expanded. With it, a request for a session or parked call another instance holds is forwarded there; without it, such a request gets 404.',
      }),
    secret: z
      .string()
      // A refinement, not .min(): the bound's message would quote the value, and a secret is never shown.
      .refine((value) => value.length >= MIN_CLUSTER_SECRET_LENGTH, { error: `must be at least ${MIN_CLUSTER_SECRET_LENGTH} characters (the value is a secret: it is not shown)` })
      .optional()
      .meta({
        minLength: MIN_CLUSTER_SECRET_LENGTH,
        description: `Shared by every instance (with advertise): it signs the requests one instance forwards to another, which are never served to hosts. \${VAR} is expanded; ${CLUSTER_SECRET_ENV} is used when unset.`,
      }),
    deadAfter: duration('A gateway instance silent this long, whose connection to PostgreSQL is gone, is dead: a survivor abandons its open questions.', 1).prefault(DEFAULTS.deadAfter),
    drainTimeout: duration('On SIGTERM, serve stops taking new host sessions and waits at most this long for the calls in flight to end; what is still open then is abandoned. 0: no waiting.', 0).prefault(DEFAULTS.drainTimeout),
  })
  .superRefine((cluster, ctx) => {
    if (cluster.advertise !== undefined && cluster.secret === undefined) custom(ctx, `is required with advertise (or set ${CLUSTER_SECRET_ENV} in the environment)`, ['secret']);
    if (cluster.secret !== undefined && cluster.advertise === undefined) custom(ctx, 'only applies with advertise', ['secret']);
  })
  .meta({ description: 'Several gateway instances on one PostgreSQL store (store.type: postgres; id, advertise, secret and deadAfter only apply there), and how any serve drains on SIGTERM.' });

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Before validation: `cluster.advertise` without `secret` takes it from SWITCHBOARD_CLUSTER_SECRET (written into `raw`). */
export function clusterSecretFromEnvironment(raw: unknown, env: Readonly<Record<string, string | undefined>>): void {
  const cluster = isPlainObject(raw) ? raw['cluster'] : undefined;
  if (!isPlainObject(cluster) || cluster['advertise'] === undefined || cluster['secret'] !== undefined) return;
  const fromEnv = env[CLUSTER_SECRET_ENV];
  if (fromEnv !== undefined && fromEnv !== '') cluster['secret'] = fromEnv;
}
