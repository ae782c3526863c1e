/**
 * @module The OAuth 2.1 client of one HTTP upstream (MCP authorization, 2025-06-18 / 2025-11-25, and the 2025-03-26
 * fallbacks): answers the transport's 401 and 403 insufficient_scope challenges with discovery, client
 * registration, a headless PKCE authorization code flow, refresh and step-up, and keeps the tokens in memory for
 * every session to that upstream (docs/design/004-upstream-oauth.md).
 */

import { systemClock } from '../../../core/clock.js';
import { randomBytes } from 'node:crypto';

import type { FetchLike, OAuthTokens } from '@modelcontextprotocol/client';
import {
  exchangeAuthorization,
  extractWWWAuthenticateParams,
  OAuthError,
  OAuthErrorCode,
  refreshAuthorization,
  startAuthorization,
} from '@modelcontextprotocol/client';

import type { OAuthSettings } from '../../../config/types.js';
import type { HttpAuthorizer } from '../streamable-http/client-transport.js';
import { UpstreamAuthError } from '../upstream-auth-error.js';
import type { OAuthClient } from './client-registration.js';
import { obtainClient } from './client-registration.js';
import type { Discovery } from './discovery.js';
import { discover } from './discovery.js';
import type { Logger } from '../../../core/log.js';
import { authorizeHeadless, HeadlessAuthorizationError } from './headless-authorization.js';
import { scopeCovers, scopeUnion, selectScope } from './scope.js';

/** Where the authorizer says what it does: the log method of the gateway's Logger. */
export type AuthLogger = Pick<Logger, 'log'>;

export interface OAuthAuthorizerOptions {
  /** Names the upstream in messages, for example `upstream 'remote' (https://…/mcp)`. */
  label: string;
  logger?: AuthLogger;
  /** The fetch used for every OAuth request (tests inject one); requests time out after `timeoutMs`. */
  fetch?: FetchLike;
  timeoutMs?: number;
  /** Clock, for tests of expiry. */
  now?: () => number;
}

interface TokenSet {
  accessToken: string;
  refreshToken: string | undefined;
  /** Milliseconds since the epoch; undefined when the server gave no lifetime. */
  expiresAt: number | undefined;
  /** What the authorization server says it granted (`scope` of the token response), when it says. */
  grantedScope: string | undefined;
  /** When it was got (the authorizer's clock). */
  obtainedAt: number;
  /** Got by a refresh that answered a 401: refused again soon after, refreshing again will not help. */
  refreshedAfterRefusal: boolean;
}

/** A token this close to its expiry is refreshed before it is sent. */
const REFRESH_MARGIN_MS = 60_000;
/** A token refreshed for a 401 and refused again within this time gets a new authorization instead of another refresh. */
const REFRESH_RETRY_MS = 60_000;
/** At most this many tokens from authorization flows in `AUTHORIZATION_WINDOW_MS`: an upstream refusing every new token cannot make us loop. */
const MAX_AUTHORIZATIONS = 3;
const AUTHORIZATION_WINDOW_MS = 60_000;

export class OAuthAuthorizer implements HttpAuthorizer {
  readonly #serverUrl: URL;
  readonly #settings: OAuthSettings;
  readonly #label: string;
  readonly #logger: AuthLogger | undefined;
  readonly #fetch: FetchLike;
  readonly #now: () => number;

  #discovery: Discovery | undefined;
  #client: OAuthClient | undefined;
  #tokens: TokenSet | undefined;
  /** The scope of the last authorization request; a re-authorization keeps it and a step-up adds to it. */
  #requestedScope: string | undefined;
  /** Bumped whenever the credentials change, so a challenge that waited for another one can see it is answered. */
  #generation = 0;
  /** Challenges and refreshes run one at a time: sessions sharing this upstream do not authorize twice. */
  #queue: Promise<unknown> = Promise.resolve();
  #authorizations: number[] = [];

  constructor(serverUrl: URL, settings: OAuthSettings, options: OAuthAuthorizerOptions) {
    this.#serverUrl = serverUrl;
    this.#settings = settings;
    this.#label = options.label;
    this.#logger = options.logger;
    this.#now = options.now ?? systemClock.now;
    const base = options.fetch ?? fetch;
    const timeoutMs = options.timeoutMs ?? 15_000;
    this.#fetch = (url, init) => base(url, { ...init, signal: init?.signal ?? AbortSignal.timeout(timeoutMs) });
  }

  async headers(): Promise<Record<string, string>> {
    const tokens = this.#tokens;
    if (tokens?.refreshToken && tokens.expiresAt !== undefined && tokens.expiresAt - REFRESH_MARGIN_MS <= this.#now()) {
      const generation = this.#generation;
      await this.#serialized(async () => {
        if (this.#generation === generation) await this.#refresh(false);
      });
    }
    return this.#tokens ? { authorization: `Bearer ${this.#tokens.accessToken}` } : {};
  }

  async challenge(response: Response, _url: URL): Promise<boolean> {
    const generation = this.#generation;
    const challenge = extractWWWAuthenticateParams(response);
    const status = response.status;
    return this.#serialized(async () => {
      // Another request met the same refusal and got new credentials meanwhile: retry with those.
      if (this.#generation !== generation) return true;
      try {
        if (status === 403) await this.#stepUp(challenge.scope, challenge.resourceMetadataUrl);
        else await this.#reauthorize(challenge.scope, challenge.resourceMetadataUrl);
        return true;
      } catch (error) {
        throw this.#asAuthError(error);
      }
    });
  }

  /** 401: refresh once if we can, else a new authorization, keeping what was asked for before. */
  async #reauthorize(challenged: string | undefined, resourceMetadataUrl: URL | undefined): Promise<void> {
    const tokens = this.#tokens;
    const refusedFresh = tokens?.refreshedAfterRefusal === true && this.#now() - tokens.obtainedAt < REFRESH_RETRY_MS;
    if (tokens?.refreshToken && !refusedFresh && scopeCovers(this.#heldScope(), challenged)) {
      if (await this.#refresh(true)) return;
    }
    await this.#authorize(challenged, resourceMetadataUrl);
  }

  /** 403 insufficient_scope: authorize again for the union of what we have and what is asked, once per new scope. */
  async #stepUp(challenged: string | undefined, resourceMetadataUrl: URL | undefined): Promise<void> {
    if (!challenged) throw new UpstreamAuthError('failed', `${this.#label} refused the request for insufficient scope without naming the scope it needs`);
    if (scopeCovers(this.#heldScope(), challenged)) {
      throw new UpstreamAuthError(
        'failed',
        `${this.#label} still refuses the request for insufficient scope (it asks for "${challenged}", which was already requested or granted): not asking the authorization server again`,
      );
    }
    await this.#authorize(challenged, resourceMetadataUrl);
  }

  /** What asking again cannot improve on: the scope requested last and the scope granted. */
  #heldScope(): string | undefined {
    return scopeUnion(this.#requestedScope, this.#tokens?.grantedScope);
  }

  async #authorize(challenged: string | undefined, resourceMetadataUrl: URL | undefined): Promise<void> {
    this.#checkAuthorizationBudget();
    const discovery = await this.#discover(resourceMetadataUrl);
    const scope = selectScope({
      challenged,
      previous: this.#requestedScope,
      configured: this.#settings.scope,
      resourceScopes: discovery.resourceMetadata?.scopes_supported,
      serverScopes: discovery.metadata?.scopes_supported,
    });
    const client = await this.#obtainClient(discovery, scope);
    const state = randomBytes(16).toString('base64url');
    const redirectUrl = this.#settings.redirectUrl;
    const { authorizationUrl, codeVerifier } = await startAuthorization(discovery.authorizationServerUrl, {
      metadata: discovery.metadata,
      clientInformation: client.information,
      redirectUrl,
      state,
      ...(scope === undefined ? {} : { scope }),
      ...(discovery.resource === undefined ? {} : { resource: discovery.resource }),
    });
    this.#log('debug', 'authorizing', { authorizationServer: discovery.authorizationServerUrl, scope: scope ?? '(none)', client: client.source });
    const { code, iss } = await authorizeHeadless(authorizationUrl, redirectUrl, state, this.#fetch);
    const tokens = await exchangeAuthorization(discovery.authorizationServerUrl, {
      metadata: discovery.metadata,
      clientInformation: client.information,
      authorizationCode: code,
      ...(iss === undefined ? {} : { iss }),
      codeVerifier,
      redirectUri: redirectUrl,
      ...(discovery.resource === undefined ? {} : { resource: discovery.resource }),
      fetchFn: this.#fetch,
    }).catch((error: unknown) => {
      // A dynamically registered client the server no longer knows is registered again next time.
      const forgotten = error instanceof OAuthError && (error.code === OAuthErrorCode.InvalidClient || error.code === OAuthErrorCode.UnauthorizedClient);
      if (forgotten && client.source === 'registered') this.#client = undefined;
      throw error;
    });
    this.#authorizations.push(this.#now());
    this.#requestedScope = scope;
    this.#store(tokens, false);
    this.#log('info', 'authorized', { authorizationServer: discovery.authorizationServerUrl, scope: scope ?? '(none)', refreshable: tokens.refresh_token !== undefined });
  }

  /** Uses the refresh token; false (and the refresh token dropped) when the server will not refresh. */
  async #refresh(afterRefusal: boolean): Promise<boolean> {
    const tokens = this.#tokens;
    const discovery = this.#discovery;
    const client = this.#client;
    if (!tokens?.refreshToken || !discovery || !client) return false;
    try {
      const refreshed = await refreshAuthorization(discovery.authorizationServerUrl, {
        metadata: discovery.metadata,
        clientInformation: client.information,
        refreshToken: tokens.refreshToken,
        ...(discovery.resource === undefined ? {} : { resource: discovery.resource }),
        fetchFn: this.#fetch,
      });
      this.#store(refreshed, afterRefusal);
      this.#log('debug', 'refreshed the access token');
      return true;
    } catch (error) {
      this.#log('info', 'could not refresh the access token; authorizing again when refused', { error: error instanceof Error ? error.message : String(error) });
      this.#tokens = { ...tokens, refreshToken: undefined };
      return false;
    }
  }

  async #discover(resourceMetadataUrl: URL | undefined): Promise<Discovery> {
    const cached = this.#discovery;
    if (cached && (resourceMetadataUrl === undefined || cached.resourceMetadataUrl === resourceMetadataUrl.href)) return cached;
    const found = await discover(this.#serverUrl, resourceMetadataUrl, this.#fetch);
    if (cached?.authorizationServerUrl !== found.authorizationServerUrl) this.#client = undefined;
    this.#discovery = found;
    this.#log('debug', 'discovered the authorization server', {
      authorizationServer: found.authorizationServerUrl,
      resourceMetadata: found.resourceMetadata ? 'yes' : 'none (2025-03-26 fallback)',
      serverMetadata: found.metadata ? 'yes' : 'none (default endpoints)',
    });
    return found;
  }

  async #obtainClient(discovery: Discovery, scope: string | undefined): Promise<OAuthClient> {
    if (this.#client?.authorizationServerUrl === discovery.authorizationServerUrl) return this.#client;
    this.#client = await obtainClient(this.#settings, discovery, scope, this.#fetch);
    this.#log('debug', 'using OAuth client', { client: this.#client.source, clientId: this.#client.information.client_id });
    return this.#client;
  }

  #store(tokens: OAuthTokens, refreshedAfterRefusal: boolean): void {
    this.#tokens = {
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token,
      expiresAt: tokens.expires_in === undefined ? undefined : this.#now() + tokens.expires_in * 1000,
      grantedScope: tokens.scope,
      obtainedAt: this.#now(),
      refreshedAfterRefusal,
    };
    this.#generation += 1;
  }

  #checkAuthorizationBudget(): void {
    const now = this.#now();
    this.#authorizations = this.#authorizations.filter((at) => now - at < AUTHORIZATION_WINDOW_MS);
    if (this.#authorizations.length >= MAX_AUTHORIZATIONS) {
      throw new UpstreamAuthError(
        'failed',
        `${this.#label} was authorized ${MAX_AUTHORIZATIONS} times within ${AUTHORIZATION_WINDOW_MS / 1000} s and keeps refusing: not authorizing again until that has passed`,
      );
    }
  }

  #serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #asAuthError(error: unknown): UpstreamAuthError {
    if (error instanceof UpstreamAuthError) return error;
    if (error instanceof HeadlessAuthorizationError) {
      if (error.needsPerson) {
        const message = `${this.#label} needs a person to authorize the gateway: ${error.message}, and the gateway cannot take part in an interactive sign-in yet. Authorization URL: ${error.authorizationUrl}`;
        return new UpstreamAuthError('needs-person', message, {
          authorizationUrl: error.authorizationUrl,
          cause: error,
        });
      }
      return new UpstreamAuthError('failed', `${this.#label}: authorization failed: ${error.message}`, { cause: error });
    }
    const message = error instanceof Error ? error.message : String(error);
    return new UpstreamAuthError('failed', `${this.#label}: OAuth authorization failed: ${message}`, { cause: error });
  }

  #log(level: 'debug' | 'info' | 'warn', message: string, fields: Record<string, unknown> = {}): void {
    this.#logger?.log(level, `${this.#label}: ${message}`, fields);
  }
}
