/** @module The `auth` section: how hosts authenticate to `/mcp` (none, OAuth 2.1 bearer tokens, API keys) and how operators sign in (OpenID Connect, the shared token). */

import { z } from 'zod';

import { custom, duration, isUrl } from './fields.js';

/** Where the operators' session-cookie secret comes from when `auth.operators.oidc.cookieSecret` is not in the file. */
export const COOKIE_SECRET_ENV = 'SWITCHBOARD_OPERATOR_COOKIE_SECRET';
export const MIN_COOKIE_SECRET_LENGTH = 32;

/** JWS algorithms accepted on host access tokens unless `algorithms` says otherwise: asymmetric only (no `none`, no HS*). */
export const DEFAULT_TOKEN_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;

const httpUrl = (description: string) =>
  z
    .string()
    .refine((text) => isUrl(text, false), { error: 'must be an http:// or https:// URL' })
    .meta({ description });

const scopeList = (description: string) => z.array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, { error: 'must be one scope token (no spaces or quotes)' })).meta({ description });

const hostsNoneSchema = z
  .strictObject({ type: z.literal('none') })
  .meta({ description: 'Hosts do not authenticate: every host is one anonymous principal (use on loopback, or behind a proxy that authenticates).' });

const hostsOAuthSchema = z
  .strictObject({
    type: z.literal('oauth'),
    issuer: httpUrl('The authorization server whose access tokens hosts present; its metadata (RFC 8414, else OpenID discovery) gives the JWKS and the introspection endpoint. ${VAR} is expanded.'),
    audience: z
      .string()
      .min(1)
      .optional()
      .meta({ description: 'The audience (RFC 8707 resource) a token must name; default: the canonical URL of /mcp, from http.publicUrl when set, else from listen.' }),
    jwksUri: httpUrl('Where the signing keys are, when the issuer\'s metadata does not say (or to override it).').optional(),
    algorithms: z
      .array(z.enum(DEFAULT_TOKEN_ALGORITHMS))
      .min(1)
      .optional()
      .meta({ description: `JWS algorithms accepted on access tokens (default: ${DEFAULT_TOKEN_ALGORITHMS.join(', ')}).` }),
    introspection: z
      .strictObject({
        endpoint: httpUrl('The RFC 7662 introspection endpoint (default: the issuer metadata\'s introspection_endpoint).').optional(),
        clientId: z.string().min(1).meta({ description: 'The client the gateway introspects as. ${VAR} is expanded.' }),
        clientSecret: z.string().min(1).meta({ description: 'Its secret (client_secret_basic). ${VAR} is expanded.' }),
      })
      .optional()
      .meta({ description: 'Introspection (RFC 7662) for opaque access tokens; without it only JWT access tokens are accepted.' }),
    scopes: scopeList('Scopes every access token must hold; a token without them gets 403 insufficient_scope.').default(() => []),
    groupsClaim: z.string().min(1).default('groups').meta({ description: 'The token claim holding the principal\'s groups (a list, or one space-separated string).' }),
    clockTolerance: duration('Leeway on a token\'s exp and nbf, for clocks that differ.', 0).prefault('30s'),
  })
  .meta({ description: 'Hosts present OAuth 2.1 access tokens (Bearer); the gateway is a resource server (Protected Resource Metadata at /.well-known/oauth-protected-resource).' });

const apiKeySchema = z
  .strictObject({
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/, { error: 'must be the SHA-256 of the key as 64 lowercase hex digits (printf %s "$KEY" | sha256sum)' })
      .meta({ description: 'The SHA-256 of the key, 64 lowercase hex digits; the key itself is never written in the file.' }),
    subject: z.string().min(1).max(200).meta({ description: 'The principal this key authenticates.' }),
    name: z.string().min(1).max(200).optional().meta({ description: 'A name to show for it.' }),
    groups: z.array(z.string().min(1)).default(() => []).meta({ description: 'Its groups, for the policy.' }),
    scopes: z.array(z.string().min(1)).default(() => []).meta({ description: 'Its scopes, for the policy.' }),
  })
  .meta({ description: 'One API key: its hash and the principal it names.' });

const hostsApiKeysSchema = z
  .strictObject({
    type: z.literal('apiKeys'),
    keys: z.array(apiKeySchema).min(1).meta({ description: 'The keys hosts may present as `Authorization: Bearer <key>`.' }),
  })
  .superRefine((hosts, ctx) => {
    const seen = new Set<string>();
    for (const [index, key] of hosts.keys.entries()) {
      if (seen.has(key.sha256)) custom(ctx, 'is listed twice', ['keys', index, 'sha256']);
      seen.add(key.sha256);
    }
  })
  .meta({ description: 'Hosts present a configured API key as a Bearer token (small installs).' });

export const hostsAuthSchema = z
  .discriminatedUnion('type', [hostsNoneSchema, hostsOAuthSchema, hostsApiKeysSchema])
  .meta({ description: 'How hosts authenticate to /mcp, /sse and /messages: none, oauth or apiKeys.' });

const operatorsOidcSchema = z
  .strictObject({
    issuer: httpUrl('The OpenID provider operators sign in with (authorization code + PKCE); its bearer tokens are accepted by the REST API and CLI. ${VAR} is expanded.'),
    clientId: z.string().min(1).meta({ description: 'The console\'s client id at the provider. ${VAR} is expanded.' }),
    clientSecret: z.string().min(1).optional().meta({ description: 'Its secret, for a confidential client (absent: a public client, PKCE only). ${VAR} is expanded.' }),
    audience: z
      .string()
      .min(1)
      .optional()
      .meta({ description: 'The audience an operator\'s bearer token for the REST API must name (default: clientId).' }),
    scopes: scopeList('Scopes asked at sign-in.').default(() => ['openid', 'profile', 'email']),
    groupsClaim: z.string().min(1).default('groups').meta({ description: 'The ID token / access token claim holding the operator\'s groups.' }),
    sessionTtl: duration('How long a console sign-in lasts.', 1).prefault('8h'),
    cookieSecret: z
      .string()
      .min(MIN_COOKIE_SECRET_LENGTH, { error: `must be at least ${MIN_COOKIE_SECRET_LENGTH} characters` })
      .optional()
      .meta({
        description: `Encrypts the console's session cookie; every instance of a cluster needs the same one. \${VAR} is expanded; ${COOKIE_SECRET_ENV} is used when unset; absent: one per process (sign-ins end on restart).`,
      }),
  })
  .meta({ description: 'Operators sign in with OpenID Connect.' });

export const operatorsAuthSchema = z
  .strictObject({
    oidc: operatorsOidcSchema.optional(),
    token: z
      .boolean()
      .optional()
      .meta({
        description:
          'Whether the shared operator token (console.token) is accepted. Default: true without oidc; false with oidc, where true accepts it from loopback clients only (bootstrap).',
      }),
  })
  .meta({ description: 'How operators authenticate to the console, REST API and /metrics.' });

export const authSchema = z
  .strictObject({
    hosts: hostsAuthSchema.prefault({ type: 'none' }),
    operators: operatorsAuthSchema.prefault({}),
  })
  .meta({ description: 'Who may use the gateway: hosts on /mcp, and operators on the console and API.' });

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Before validation: `auth.operators.oidc` without `cookieSecret` takes it from SWITCHBOARD_OPERATOR_COOKIE_SECRET (written into `raw`). */
export function cookieSecretFromEnvironment(raw: unknown, env: Readonly<Record<string, string | undefined>>): void {
  const auth = isPlainObject(raw) ? raw['auth'] : undefined;
  const operators = isPlainObject(auth) ? auth['operators'] : undefined;
  const oidc = isPlainObject(operators) ? operators['oidc'] : undefined;
  if (!isPlainObject(oidc) || oidc['cookieSecret'] !== undefined) return;
  const fromEnv = env[COOKIE_SECRET_ENV];
  if (fromEnv !== undefined && fromEnv !== '') oidc['cookieSecret'] = fromEnv;
}
