/**
 * @module e2e/harness/oidc-provider: a real OpenID Connect / OAuth 2.1 authorization server (the `oidc-provider`
 * package) run in-process on `http://127.0.0.1:<ephemeral port>` for the tests, with its own keys and users.
 *
 * Flows it serves:
 * - client_credentials for confidential clients (`test-host` built in): the token's `sub` is the client id;
 * - authorization code + PKCE S256 (required of every client) through the provider's own login and consent pages
 *   (`devInteractions`), driven headlessly by `userToken`/`authorize` or by a real browser;
 * - open dynamic client registration (`/reg`), e.g. for the MCP SDK's own OAuth client; http loopback redirect
 *   URIs are accepted for code-flow clients;
 * - refresh tokens (scope `offline_access`, which the provider only honours with `prompt=consent`);
 * - introspection (opaque tokens only: the provider refuses to introspect its JWTs) and revocation.
 *
 * Settings that matter: resource indicators (RFC 8707) are on and every allowed resource is a resource server
 * whose access tokens are JWTs (RS256, `typ: at+jwt`) with `aud` = the resource and `scope` = the requested scopes
 * among `options.scopes` (narrowed by the client's `scope`, if registered); a client with
 * `accessTokenFormat: 'opaque'` gets opaque ones instead. A user's `groups` are a claim of their access tokens
 * (`extraTokenClaims`) and, with scope `groups`, of the ID token and userinfo. `options.scopes` are also listed as
 * the provider's scopes (discovery), since registration refuses a client `scope` naming any other.
 *
 * The pages (for a browser): login at /interaction/<uid> is a form with `input[name=login]` (the subject),
 * `input[name=password]` and `button[type=submit]` ("Sign-in"); consent, at a new /interaction/<uid>, is a form
 * whose only control is `button[type=submit]` ("Continue"). The dev login page accepts any login; here a login
 * succeeds only with the user's password (else the flow ends at the redirect URI with `error=access_denied`).
 * oidc-provider 9 warns that it wants Node 22; it runs on Node 20 as far as these flows go, and its console
 * warnings and notices are dropped while a fixture is open.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { ClientMetadata, Configuration, ProviderClient, ProviderToken } from 'oidc-provider';

import { createPkce, driveAuthorization, randomToken } from './oidc-user-agent.js';

export interface TestUser {
  /** The account id: what the login page takes as login and what becomes `sub`. */
  readonly subject: string;
  readonly password: string;
  readonly name?: string;
  readonly email?: string;
  readonly groups: readonly string[];
}

export interface TestClient {
  readonly clientId: string;
  /** Confidential (client_secret_basic) with a secret, public (`none`) without. */
  readonly clientSecret?: string;
  readonly redirectUris?: readonly string[];
  /** Default: `authorization_code refresh_token` with redirect URIs, else `client_credentials`. */
  readonly grantTypes?: readonly string[];
  /** Space-separated; narrows the scopes the client may get (resource scopes included). */
  readonly scope?: string;
  /** Default `jwt`. */
  readonly accessTokenFormat?: 'jwt' | 'opaque';
}

export interface OidcFixtureOptions {
  readonly users: readonly TestUser[];
  /** Resource indicators (RFC 8707) the provider issues access tokens for; a predicate when the port is only known later. Default: any. */
  readonly resources?: readonly string[] | ((resource: string) => boolean);
  /** More pre-registered clients; one named like a built-in replaces it. */
  readonly clients?: readonly TestClient[];
  /** Default 300. */
  readonly accessTokenTtlSeconds?: number;
  /** The resource servers' scopes, e.g. `mcp:tools`; the OpenID ones are `openid profile email groups offline_access`. */
  readonly scopes?: readonly string[];
}

export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface UserTokens {
  readonly accessToken: string;
  readonly idToken?: string;
  readonly refreshToken?: string;
}

export interface OidcFixture {
  /** `http://127.0.0.1:PORT`, also the `iss` of every token. */
  readonly issuer: string;
  /** The discovery document's endpoints. */
  readonly endpoints: { readonly authorization: string; readonly token: string; readonly jwks: string; readonly introspection: string; readonly revocation: string; readonly registration: string; readonly userinfo: string };
  /** The confidential client `test-host` (client_credentials). */
  readonly hostClient: ClientCredentials;
  /** A client the introspection and revocation endpoints serve for any token (a token's own client may too). */
  readonly introspectionClient: ClientCredentials;
  /** A client_credentials access token (a JWT) for `resource`; `sub` is the client id. Default client `test-host`. */
  clientCredentialsToken(options: { resource: string; scope?: string; clientId?: string; clientSecret?: string }): Promise<string>;
  /** An opaque client_credentials access token for `resource` (client `test-host-opaque`), for introspection. */
  opaqueToken(options: { resource: string; scope?: string }): Promise<string>;
  /**
   * A user's tokens for `resource` through the real authorization code + PKCE flow over the provider's login and
   * consent pages. Default client `switchboard-console`; default scope: the OpenID ones and all `options.scopes`.
   */
  userToken(options: { subject: string; resource: string; scope?: string; clientId?: string }): Promise<UserTokens>;
  /** Drives a client's authorization URL through login (as `subject`, with `password` or theirs) and consent; the redirect it ends in, not followed. */
  authorize(authorizationUrl: string, subject: string, password?: string): Promise<URL>;
  /** Errors the provider reported as server_error (should stay empty). */
  readonly serverErrors: readonly Error[];
  close(): Promise<void>;
}

export const CONSOLE_CLIENT_ID = 'switchboard-console';
/** The built-in console client's redirect URI (never followed by `userToken`). */
export const CONSOLE_REDIRECT_URI = 'http://127.0.0.1/callback';
const OPENID_SCOPES = ['openid', 'profile', 'email', 'groups', 'offline_access'] as const;

function clientMetadata(client: TestClient): ClientMetadata {
  const redirectUris = client.redirectUris ?? [];
  const grantTypes = client.grantTypes ?? (redirectUris.length > 0 ? ['authorization_code', 'refresh_token'] : ['client_credentials']);
  return {
    client_id: client.clientId,
    ...(client.clientSecret === undefined ? { token_endpoint_auth_method: 'none' } : { client_secret: client.clientSecret, token_endpoint_auth_method: 'client_secret_basic' }),
    redirect_uris: [...redirectUris],
    grant_types: [...grantTypes],
    response_types: grantTypes.includes('authorization_code') ? ['code'] : [],
    ...(client.scope === undefined ? {} : { scope: client.scope }),
  };
}

/** An RS256 and an ES256 signing key, private JWKs with their thumbprint as kid (RS256 first: the ID tokens' default). */
async function signingKeys(): Promise<JWK[]> {
  return Promise.all(
    (['RS256', 'ES256'] as const).map(async (alg) => {
      const { privateKey } = await generateKeyPair(alg, { extractable: true });
      const jwk = await exportJWK(privateKey);
      return { ...jwk, alg, use: 'sig', kid: await calculateJwkThumbprint(jwk) };
    }),
  );
}

let quietFixtures = 0;
let loudConsole: Pick<Console, 'warn' | 'info'> | undefined;
/** Drops oidc-provider's own console lines (its runtime, dev-only and "SHOULD change" notices) while any fixture is open. */
function quietProviderConsole(): () => void {
  if (quietFixtures++ === 0) {
    const { warn, info } = console;
    loudConsole = { warn, info };
    const own = (first: unknown): boolean => typeof first === 'string' && /oidc-provider (WARNING|NOTICE):/.test(first);
    console.warn = (...args: unknown[]) => (own(args[0]) ? undefined : warn.apply(console, args));
    console.info = (...args: unknown[]) => (own(args[0]) ? undefined : info.apply(console, args));
  }
  let restored = false;
  return () => {
    if (restored) return;
    restored = true;
    if (--quietFixtures === 0 && loudConsole) Object.assign(console, loudConsole);
  };
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function tokenRequest(endpoint: string, form: Record<string, string>, basic?: ClientCredentials): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (basic) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(basic.clientId)}:${encodeURIComponent(basic.clientSecret)}`).toString('base64')}`;
  const response = await fetch(endpoint, { method: 'POST', headers, body: new URLSearchParams(form) });
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${endpoint} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

function stringField(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== 'string') throw new Error(`no ${name} in ${JSON.stringify(body)}`);
  return value;
}

export async function startOidcProvider(options: OidcFixtureOptions): Promise<OidcFixture> {
  const restoreConsole = quietProviderConsole();
  let handler: RequestListener | undefined;
  const server = createServer((req, res) => (handler ? handler(req, res) : res.writeHead(503).end()));
  try {
    const { Provider, errors } = await import('oidc-provider');
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const ttl = options.accessTokenTtlSeconds ?? 300;
    const resourceScopes = options.scopes ?? [];
    const allowed = options.resources;
    const isResource = typeof allowed === 'function' ? allowed : (resource: string) => allowed === undefined || allowed.includes(resource);
    const users = new Map(options.users.map((user) => [user.subject, user]));
    const hostClient = { clientId: 'test-host', clientSecret: randomToken() };
    const opaqueClient = { clientId: 'test-host-opaque', clientSecret: randomToken() };
    const introspectionClient = { clientId: 'test-introspector', clientSecret: randomToken() };
    const clients = new Map<string, TestClient>(
      [
        { clientId: CONSOLE_CLIENT_ID, redirectUris: [CONSOLE_REDIRECT_URI] },
        hostClient,
        { ...opaqueClient, accessTokenFormat: 'opaque' as const },
        { ...introspectionClient, grantTypes: [] },
        ...(options.clients ?? []),
      ].map((client) => [client.clientId, client]),
    );
    // A token's own client, and the introspection client, may introspect and revoke it.
    const mayManage = (client: ProviderClient, token: ProviderToken): boolean => client.clientId === introspectionClient.clientId || client.clientId === token.clientId;
    const opaqueFormat = (client: ProviderClient): boolean => clients.get(client.clientId)?.accessTokenFormat === 'opaque';

    const configuration: Configuration = {
      clients: [...clients.values()].map(clientMetadata),
      jwks: { keys: await signingKeys() },
      cookies: { keys: [randomBytes(32).toString('base64url')] },
      claims: { openid: ['sub'], profile: ['name'], email: ['email'], groups: ['groups'] },
      // The resource scopes are listed too: dynamic registration refuses a client `scope` naming scopes not listed here.
      scopes: [...OPENID_SCOPES, ...resourceScopes],
      // The scope-requested claims (name, email, groups) go into the ID token too, not only to userinfo.
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      ttl: { AccessToken: ttl, ClientCredentials: ttl, AuthorizationCode: 60, IdToken: 3_600, RefreshToken: 86_400, Interaction: 600, Session: 3_600, Grant: 86_400 },
      async findAccount(_ctx, id) {
        const user = users.get(id);
        if (!user) return undefined;
        const claims = { sub: user.subject, name: user.name, email: user.email, groups: [...user.groups] };
        return { accountId: user.subject, claims: () => claims };
      },
      async extraTokenClaims(_ctx, token) {
        const user = token.accountId === undefined ? undefined : users.get(token.accountId);
        return user ? { groups: [...user.groups] } : undefined;
      },
      clientBasedCORS: () => true,
      async renderError(ctx, out) {
        ctx.type = 'html';
        ctx.body = `<!DOCTYPE html><title>${escapeHtml(out.error ?? 'error')}</title><h1>${escapeHtml(out.error ?? 'error')}</h1><p>${escapeHtml(out.error_description ?? '')}</p>`;
      },
      features: {
        devInteractions: { enabled: true },
        clientCredentials: { enabled: true },
        registration: { enabled: true, initialAccessToken: false },
        introspection: { enabled: true, allowedPolicy: async (_ctx, client, token) => mayManage(client, token) },
        revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => mayManage(client, token) },
        resourceIndicators: {
          enabled: true,
          // A single resource of the authorization request is the token's when the token request names none.
          defaultResource: async (_ctx, _client, oneOf) => oneOf,
          useGrantedResource: async () => true,
          async getResourceServerInfo(_ctx, resource, client) {
            if (!isResource(resource)) throw new errors.InvalidTarget(`this provider issues no tokens for ${resource}`);
            const clientScopes = client.scope?.split(' ');
            const scopes = clientScopes ? resourceScopes.filter((scope) => clientScopes.includes(scope)) : resourceScopes;
            return {
              scope: scopes.join(' '),
              audience: resource,
              accessTokenFormat: opaqueFormat(client) ? 'opaque' : 'jwt',
              accessTokenTTL: ttl,
              jwt: { sign: { alg: 'RS256' } },
            };
          },
        },
      },
    };
    const provider = new Provider(issuer, configuration);
    const serverErrors: Error[] = [];
    provider.on('server_error', (_ctx, error) => serverErrors.push(error));
    provider.on('error', (error) => serverErrors.push(error));
    // The dev login page takes any login and ignores the password; here the password must be the user's.
    const finish = provider.interactionFinished.bind(provider);
    provider.interactionFinished = async (req, res, result, finishOptions) => {
      if ('login' in result) {
        const password = Provider.ctx?.oidc.body?.password;
        if (users.get(result.login.accountId)?.password !== password) {
          return finish(req, res, { error: 'access_denied', error_description: 'unknown login or wrong password' }, { mergeWithLastSubmission: false });
        }
      }
      return finish(req, res, result, finishOptions);
    };
    handler = provider.callback();

    const discovery = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    const endpoints = {
      authorization: stringField(discovery, 'authorization_endpoint'),
      token: stringField(discovery, 'token_endpoint'),
      jwks: stringField(discovery, 'jwks_uri'),
      introspection: stringField(discovery, 'introspection_endpoint'),
      revocation: stringField(discovery, 'revocation_endpoint'),
      registration: stringField(discovery, 'registration_endpoint'),
      userinfo: stringField(discovery, 'userinfo_endpoint'),
    };

    function userOf(subject: string): TestUser {
      const user = users.get(subject);
      if (!user) throw new Error(`no test user ${subject}`);
      return user;
    }

    const authorize = (authorizationUrl: string, subject: string, password?: string): Promise<URL> =>
      driveAuthorization(issuer, authorizationUrl, { login: subject, password: password ?? userOf(subject).password });

    async function clientCredentialsToken(request: { resource: string; scope?: string; clientId?: string; clientSecret?: string }): Promise<string> {
      const credentials = request.clientId === undefined ? hostClient : { clientId: request.clientId, clientSecret: request.clientSecret ?? clients.get(request.clientId)?.clientSecret ?? '' };
      const form: Record<string, string> = { grant_type: 'client_credentials', resource: request.resource };
      if (request.scope !== undefined) form.scope = request.scope;
      return stringField(await tokenRequest(endpoints.token, form, credentials), 'access_token');
    }

    async function userToken(request: { subject: string; resource: string; scope?: string; clientId?: string }): Promise<UserTokens> {
      const client = clients.get(request.clientId ?? CONSOLE_CLIENT_ID);
      const redirectUri = client?.redirectUris?.[0];
      if (!client || redirectUri === undefined) throw new Error(`client ${request.clientId} is not a pre-registered client with a redirect URI`);
      const scope = request.scope ?? [...OPENID_SCOPES, ...resourceScopes].join(' ');
      const pkce = createPkce();
      const state = randomToken();
      const url = new URL(endpoints.authorization);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: client.clientId,
        redirect_uri: redirectUri,
        scope,
        state,
        nonce: randomToken(),
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
        resource: request.resource,
        // offline_access (a refresh token) is only granted when consent is prompted for.
        ...(scope.split(' ').includes('offline_access') ? { prompt: 'consent' } : {}),
      }).toString();
      const redirect = await authorize(url.href, request.subject);
      const code = redirect.searchParams.get('code');
      if (code === null || redirect.searchParams.get('state') !== state) throw new Error(`authorization failed: ${redirect.href}`);
      const form: Record<string, string> = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: pkce.verifier, resource: request.resource };
      const secret = client.clientSecret;
      if (secret === undefined) form.client_id = client.clientId;
      const tokens = await tokenRequest(endpoints.token, form, secret === undefined ? undefined : { clientId: client.clientId, clientSecret: secret });
      const idToken = tokens.id_token;
      const refreshToken = tokens.refresh_token;
      return {
        accessToken: stringField(tokens, 'access_token'),
        ...(typeof idToken === 'string' ? { idToken } : {}),
        ...(typeof refreshToken === 'string' ? { refreshToken } : {}),
      };
    }

    let closing: Promise<void> | undefined;
    return {
      issuer,
      endpoints,
      hostClient,
      introspectionClient,
      clientCredentialsToken,
      opaqueToken: ({ resource, scope }) => clientCredentialsToken({ resource, scope, ...opaqueClient }),
      userToken,
      authorize,
      serverErrors,
      close: () =>
        (closing ??= new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }).finally(restoreConsole)),
    };
  } catch (error) {
    server.closeAllConnections();
    server.close();
    restoreConsole();
    throw error;
  }
}
