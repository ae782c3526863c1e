/**
 * @module A scripted OAuth lab on node:http for the authorizer's tests: an MCP resource (bearer tokens, scopes per
 * method, 401/403 challenges, protected resource metadata) and its authorization server (metadata, dynamic
 * registration, an authorization endpoint that redirects or shows a page, PKCE-checked tokens, refresh), on one
 * port. Every request is recorded.
 */

import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LabOptions {
  /** Protected resource metadata, or null for a 2025-03-26 server without any. */
  prm?: { path: string; inChallenge: boolean; scopesSupported?: string[]; resource?: (origin: string) => string } | null;
  /** The authorization server's path under the origin ('' or '/tenant1'); the issuer is origin + prefix. */
  asPrefix?: string;
  /** Where the server metadata lives: RFC 8414 path-inserted (or at the root whatever the prefix), OpenID path-inserted, OpenID path-appended, or none. */
  asMetadata?: 'oauth' | 'oauth-root' | 'oidc' | 'oidc-appended' | null;
  /** Issuer published in the metadata, when it is not origin + prefix. */
  issuer?: string;
  registration?: boolean;
  authMethods?: string[];
  cimd?: boolean;
  serverScopes?: string[];
  /** When set, the server grants only these of the scopes asked for. */
  grantable?: string[];
  /** Token lifetime in seconds, and whether refresh tokens are issued. */
  expiresIn?: number;
  refreshTokens?: boolean;
  /** What the authorization endpoint does. */
  authorize?: 'redirect' | 'page' | 'hop' | 'login_required' | 'access_denied' | 'wrong-state';
  /** Scopes a token needs per JSON-RPC method ('*' for any other); a 403 insufficient_scope names them. */
  requiredScopes?: Record<string, string[]>;
  /** Whether the 401 challenge carries `scope` (the scopes of the refused method). */
  scopeInChallenge?: boolean;
  /** Methods served without a token. */
  open?: string[];
  /** Refuse every token with 401 (a resource that never accepts what its server issues). */
  refuseAll?: boolean;
  /** Refresh grants are refused with invalid_grant. */
  refuseRefresh?: boolean;
  /** Pre-registered clients: id -> secret ('' for a public one). */
  clients?: Record<string, string>;
}

export interface LabRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

interface IssuedToken {
  scopes: string[];
  expiresAt: number | undefined;
}

export class OAuthLab {
  readonly requests: LabRequest[] = [];
  readonly options: LabOptions;
  #server: Server;
  #origin = '';
  #tokens = new Map<string, IssuedToken>();
  #refreshTokens = new Map<string, string[]>();
  #codes = new Map<string, { challenge: string; scopes: string[]; clientId: string; resource: string | null }>();
  #clients = new Map<string, string>();
  #registered = 0;
  /** Lab time in ms, for expiry (tests move it). */
  now = 1_000_000;

  constructor(options: LabOptions = {}) {
    this.options = options;
    for (const [id, secret] of Object.entries(options.clients ?? {})) this.#clients.set(id, secret);
    this.#server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => this.#handle(req, body, res));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.#origin = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  get origin(): string {
    return this.#origin;
  }

  get mcpUrl(): URL {
    return new URL('/mcp', this.#origin);
  }

  get issuer(): string {
    return this.options.issuer ?? `${this.#origin}${this.options.asPrefix ?? ''}`;
  }

  /** The requests to one path (without query). */
  to(path: string): LabRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  /** Query parameters of every request to the authorization endpoint. */
  get authorizations(): URLSearchParams[] {
    return this.to(`${this.options.asPrefix ?? ''}/authorize`).map((request) => request.query);
  }

  /** Form bodies and Authorization headers of every token request. */
  get tokenRequests(): { form: URLSearchParams; authorization: string | undefined }[] {
    return this.to(`${this.options.asPrefix ?? ''}/token`).map((request) => ({ form: new URLSearchParams(request.body), authorization: request.headers.authorization }));
  }

  #handle(req: IncomingMessage, body: string, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', this.#origin);
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body });
    const prefix = this.options.asPrefix ?? '';
    const prm = this.options.prm === undefined ? { path: '/.well-known/oauth-protected-resource/mcp', inChallenge: true } : this.options.prm;
    if (url.pathname === '/mcp' && req.method === 'POST') return this.#mcp(body, req, res, prm);
    if (prm && url.pathname === prm.path) {
      return json(res, 200, {
        resource: prm.resource?.(this.#origin) ?? `${this.#origin}/mcp`,
        authorization_servers: [`${this.#origin}${prefix}`],
        ...(prm.scopesSupported ? { scopes_supported: prm.scopesSupported } : {}),
      });
    }
    if (url.pathname === this.#metadataPath()) return json(res, 200, this.#metadata());
    if (url.pathname === `${prefix}/authorize`) return this.#authorize(url.searchParams, res);
    if (url.pathname === '/hop') return redirect(res, url.searchParams.get('to') ?? '/');
    if (url.pathname === `${prefix}/token` && req.method === 'POST') return this.#token(new URLSearchParams(body), req.headers.authorization, res);
    if (url.pathname === `${prefix}/register` && req.method === 'POST' && this.options.registration !== false) return this.#register(body, res);
    json(res, 404, { error: 'not_found' });
  }

  #metadataPath(): string | undefined {
    const prefix = this.options.asPrefix ?? '';
    switch (this.options.asMetadata === undefined ? 'oauth' : this.options.asMetadata) {
      case 'oauth':
        return `/.well-known/oauth-authorization-server${prefix}`;
      case 'oauth-root':
        return '/.well-known/oauth-authorization-server';
      case 'oidc':
        return `/.well-known/openid-configuration${prefix}`;
      case 'oidc-appended':
        return `${prefix}/.well-known/openid-configuration`;
      default:
        return undefined;
    }
  }

  #metadata(): Record<string, unknown> {
    const base = `${this.#origin}${this.options.asPrefix ?? ''}`;
    return {
      issuer: this.issuer,
      authorization_endpoint: `${base}/authorize`,
      token_endpoint: `${base}/token`,
      ...(this.options.registration === false ? {} : { registration_endpoint: `${base}/register` }),
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: this.options.authMethods ?? ['none'],
      ...(this.options.serverScopes ? { scopes_supported: this.options.serverScopes } : {}),
      ...(this.options.cimd ? { client_id_metadata_document_supported: true } : {}),
      ...(this.options.asMetadata?.startsWith('oidc') ? { jwks_uri: `${base}/jwks`, subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['RS256'] } : {}),
    };
  }

  #register(body: string, res: ServerResponse): void {
    const metadata = JSON.parse(body) as { token_endpoint_auth_method?: string };
    const method = metadata.token_endpoint_auth_method ?? 'client_secret_basic';
    const id = `registered-${++this.#registered}`;
    const secret = method === 'none' ? '' : `secret-${this.#registered}`;
    this.#clients.set(id, secret);
    json(res, 201, { ...metadata, client_id: id, ...(secret ? { client_secret: secret } : {}), token_endpoint_auth_method: method });
  }

  #authorize(query: URLSearchParams, res: ServerResponse): void {
    const back = new URL(query.get('redirect_uri') ?? 'http://invalid/');
    const state = query.get('state') ?? '';
    switch (this.options.authorize ?? 'redirect') {
      case 'page':
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<form>Sign in</form>');
        return;
      case 'login_required':
      case 'access_denied':
        back.searchParams.set('error', this.options.authorize ?? '');
        back.searchParams.set('state', state);
        return redirect(res, back.href);
      default:
        break;
    }
    const code = randomBytes(8).toString('hex');
    this.#codes.set(code, {
      challenge: query.get('code_challenge') ?? '',
      scopes: (query.get('scope') ?? '').split(' ').filter((scope) => scope && (this.options.grantable?.includes(scope) ?? true)),
      clientId: query.get('client_id') ?? '',
      resource: query.get('resource'),
    });
    back.searchParams.set('code', code);
    back.searchParams.set('state', this.options.authorize === 'wrong-state' ? 'not-yours' : state);
    redirect(res, this.options.authorize === 'hop' ? `/hop?to=${encodeURIComponent(back.href)}` : back.href);
  }

  #token(form: URLSearchParams, authorization: string | undefined, res: ServerResponse): void {
    const clientId = this.#authenticateClient(form, authorization);
    if (clientId === undefined) return json(res, 401, { error: 'invalid_client' });
    let scopes: string[];
    if (form.get('grant_type') === 'authorization_code') {
      const grant = this.#codes.get(form.get('code') ?? '');
      this.#codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (!grant || grant.challenge !== challenge || grant.clientId !== clientId || grant.resource !== form.get('resource')) return json(res, 400, { error: 'invalid_grant' });
      scopes = grant.scopes;
    } else if (form.get('grant_type') === 'refresh_token') {
      const granted = this.#refreshTokens.get(form.get('refresh_token') ?? '');
      if (!granted || this.options.refuseRefresh) return json(res, 400, { error: 'invalid_grant' });
      scopes = granted;
    } else {
      return json(res, 400, { error: 'unsupported_grant_type' });
    }
    const accessToken = `at-${randomBytes(6).toString('hex')}`;
    const expiresIn = this.options.expiresIn;
    this.#tokens.set(accessToken, { scopes, expiresAt: expiresIn === undefined ? undefined : this.now + expiresIn * 1000 });
    const refreshToken = this.options.refreshTokens ? `rt-${randomBytes(6).toString('hex')}` : undefined;
    if (refreshToken) this.#refreshTokens.set(refreshToken, scopes);
    json(res, 200, {
      access_token: accessToken,
      token_type: 'Bearer',
      ...(expiresIn === undefined ? {} : { expires_in: expiresIn }),
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
      ...(scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
    });
  }

  /** The client id a token request authenticates as (basic, post or public), or undefined when it fails. */
  #authenticateClient(form: URLSearchParams, authorization: string | undefined): string | undefined {
    if (authorization?.startsWith('Basic ')) {
      const [id = '', secret = ''] = Buffer.from(authorization.slice(6), 'base64').toString().split(':');
      return this.#clients.get(id) === secret && secret !== '' ? id : undefined;
    }
    const id = form.get('client_id') ?? '';
    if (id.startsWith('https://')) return id; // a Client ID Metadata Document URL (the lab does not fetch it)
    const secret = form.get('client_secret') ?? '';
    return this.#clients.has(id) && this.#clients.get(id) === secret ? id : undefined;
  }

  #mcp(body: string, req: IncomingMessage, res: ServerResponse, prm: NonNullable<LabOptions['prm']> | null): void {
    const message = JSON.parse(body) as { id?: number; method: string };
    const challenge = (error: string, scopes: string[]): string => {
      const parts = [`error="${error}"`];
      if (scopes.length > 0 && (error === 'insufficient_scope' || this.options.scopeInChallenge)) parts.push(`scope="${scopes.join(' ')}"`);
      if (prm?.inChallenge) parts.push(`resource_metadata="${this.#origin}${prm.path}"`);
      return `Bearer ${parts.join(', ')}`;
    };
    const required = this.options.requiredScopes?.[message.method] ?? this.options.requiredScopes?.['*'] ?? [];
    if (!this.options.open?.includes(message.method)) {
      const token = req.headers.authorization?.startsWith('Bearer ') ? this.#tokens.get(req.headers.authorization.slice(7)) : undefined;
      if (!token || this.options.refuseAll || (token.expiresAt !== undefined && token.expiresAt <= this.now)) {
        res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': challenge('invalid_token', required) });
        return void res.end(JSON.stringify({ error: 'invalid_token' }));
      }
      if (!required.every((scope) => token.scopes.includes(scope))) {
        res.writeHead(403, { 'content-type': 'application/json', 'www-authenticate': challenge('insufficient_scope', required) });
        return void res.end(JSON.stringify({ error: 'insufficient_scope' }));
      }
    }
    if (message.id === undefined) {
      res.writeHead(202);
      return void res.end();
    }
    json(res, 200, { jsonrpc: '2.0', id: message.id, result: { method: message.method } });
  }
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location });
  res.end();
}
