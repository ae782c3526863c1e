/** @module A tiny authorization server on a real socket for the auth tests: metadata (RFC 8414 or OpenID), a JWKS with key rotation, introspection behind Basic auth. */

import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { exportJWK, exportSPKI, generateKeyPair, SignJWT } from 'jose';
import type { CryptoKey, JWK, JWTPayload } from 'jose';

/** Where the metadata is published: RFC 8414, OpenID discovery inserted before or appended after the issuer's path, or nowhere. */
export type DiscoveryMode = 'oauth' | 'openid-inserted' | 'openid-appended' | 'none';

export interface TestAuthorizationServerOptions {
  /** A path after the origin in the issuer (`/tenant`), or none. */
  issuerPath?: string;
  discovery?: DiscoveryMode;
  alg?: 'RS256' | 'ES256';
  clientId?: string;
  clientSecret?: string;
}

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  jwk: JWK;
}

export interface TestAuthorizationServer {
  readonly issuer: string;
  readonly jwksUri: string;
  readonly introspectionEndpoint: string;
  /** Requests seen, by path. */
  readonly hits: Map<string, number>;
  /** What introspection answers for a token (absent: `{ active: false }`). */
  readonly introspection: Map<string, Record<string, unknown>>;
  /** Endpoints answering 500 until removed. */
  readonly failing: Set<'jwks' | 'metadata' | 'introspection'>;
  discovery: DiscoveryMode;
  /** The current signing key's id. */
  readonly kid: string;
  /** The current public key as PEM (to forge an HS256 token with it as the secret). */
  publicKeyPem(): Promise<string>;
  /** A compact JWS of `payload` signed with the current key; the header is `{ alg, kid, typ: 'at+jwt' }` merged with `header`. */
  sign(payload: JWTPayload, header?: Record<string, unknown>): Promise<string>;
  /** A new key replaces the published one (a rotation): the JWKS lists only the new key. */
  rotate(): Promise<void>;
  close(): Promise<void>;
}

async function newKey(alg: 'RS256' | 'ES256', kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, privateKey, publicKey, jwk };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** RFC 6749 §2.3.1: Basic over the form-urlencoded id and secret. */
function basicCredentialsMatch(header: string | undefined, clientId: string, clientSecret: string): boolean {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
  if (match?.[1] === undefined) return false;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  const formDecode = (text: string) => new URLSearchParams(`v=${text}`).get('v');
  return formDecode(decoded.slice(0, colon)) === clientId && formDecode(decoded.slice(colon + 1)) === clientSecret;
}

export async function startTestAuthorizationServer(options: TestAuthorizationServerOptions = {}): Promise<TestAuthorizationServer> {
  const alg = options.alg ?? 'RS256';
  const clientId = options.clientId ?? 'gateway';
  const clientSecret = options.clientSecret ?? 'gateway-secret';
  const issuerPath = options.issuerPath ?? '';
  let generation = 1;
  let key = await newKey(alg, `key-${generation}`);
  const hits = new Map<string, number>();
  const introspection = new Map<string, Record<string, unknown>>();
  const failing = new Set<'jwks' | 'metadata' | 'introspection'>();
  let origin = '';

  const metadataPath = (mode: DiscoveryMode): string | undefined => {
    if (mode === 'oauth') return `/.well-known/oauth-authorization-server${issuerPath}`;
    if (mode === 'openid-inserted') return `/.well-known/openid-configuration${issuerPath}`;
    if (mode === 'openid-appended') return `${issuerPath}/.well-known/openid-configuration`;
    return undefined;
  };

  const server = createServer((request, response) => {
    void (async () => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      if (path === metadataPath(handle.discovery)) {
        if (failing.has('metadata')) return json(response, 500, { error: 'server_error' });
        return json(response, 200, { issuer: handle.issuer, jwks_uri: handle.jwksUri, introspection_endpoint: handle.introspectionEndpoint, response_types_supported: ['code'] });
      }
      if (path === '/jwks') {
        if (failing.has('jwks')) return json(response, 500, { error: 'server_error' });
        return json(response, 200, { keys: [key.jwk] });
      }
      if (path === '/introspect' && request.method === 'POST') {
        const body = new URLSearchParams(await readBody(request));
        if (failing.has('introspection')) return json(response, 500, { error: 'server_error' });
        if (!basicCredentialsMatch(request.headers.authorization, clientId, clientSecret)) return json(response, 401, { error: 'invalid_client' });
        if (body.get('token_type_hint') !== 'access_token') return json(response, 400, { error: 'invalid_request' });
        return json(response, 200, introspection.get(body.get('token') ?? '') ?? { active: false });
      }
      json(response, 404, { error: 'not_found' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const handle: TestAuthorizationServer = {
    issuer: `${origin}${issuerPath}`,
    jwksUri: `${origin}/jwks`,
    introspectionEndpoint: `${origin}/introspect`,
    hits,
    introspection,
    failing,
    discovery: options.discovery ?? 'oauth',
    get kid() {
      return key.kid;
    },
    publicKeyPem: () => exportSPKI(key.publicKey),
    sign: (payload, header = {}) =>
      new SignJWT(payload).setProtectedHeader({ alg, kid: key.kid, typ: 'at+jwt', ...header }).sign(key.privateKey),
    async rotate() {
      generation += 1;
      key = await newKey(alg, `key-${generation}`);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
  return handle;
}
