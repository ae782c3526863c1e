/**
 * @module Issue 14, hosts: the real `switchboard serve` as an OAuth 2.1 resource server in front of the incident desk,
 * trusting a real OpenID provider (oidc-provider on loopback). No token gets 401 with the metadata URL; the SDK v2
 * client's own OAuth flow (discovery, registration, code + PKCE) reaches the gateway and calls a tool, as a 2025-11-25
 * and as a 2026-07-28 host; a raw 2025-06-18 host with a user token too; a token for another audience and an expired
 * one are refused; a principal denied `restart_service` does not see it and gets GW_ERR_FORBIDDEN in every era; a
 * session or a requestState of another subject is refused.
 */

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthClientProvider, OAuthTokens } from '@modelcontextprotocol/client';

import { APPROVE, MODEL_REPLY } from './harness/era-pairs.js';
import type { RunningGateway } from './harness/gateway.js';
import { startGateway } from './harness/gateway.js';
import type { OidcFixture } from './harness/oidc-provider.js';
import { startOidcProvider } from './harness/oidc-provider.js';
import type { HttpUpstream } from './harness/upstreams.js';
import { incidentDeskStdio, startIncidentDeskHttp } from './harness/upstreams.js';
import type { HeaderRecorder } from './harness/header-recorder.js';
import { startHeaderRecorder } from './harness/header-recorder.js';

const ACCEPT = 'application/json, text/event-stream';
const USERS = [
  { subject: 'ada', password: 'ada-password', name: 'Ada Lovelace', groups: ['ops'] },
  { subject: 'bob', password: 'bob-password', name: 'Bob', groups: ['dev'] },
];
const SHORT_LIVED = { clientId: 'short-lived', clientSecret: 'short-lived-secret-0123456789' };
const MODERN_META = (name: string) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/clientInfo': { name, version: '1' },
});

type Message = Record<string, unknown> & { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: { reason?: string } } };

/** The JSON-RPC messages of a response: its JSON body, or the data of each SSE event. */
async function messagesOf(response: Response): Promise<Message[]> {
  const text = await response.text();
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    return text
      .split('\n')
      .filter((line) => line.startsWith('data:') && line.slice(5).trim() !== '')
      .map((line) => JSON.parse(line.slice(5)) as Message);
  }
  return text === '' ? [] : [JSON.parse(text) as Message];
}

function post(url: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers }, body: JSON.stringify(body) });
}

/** A raw sessionful host with a bearer token: initialize, initialized, then requests answered by id. */
async function legacyHost(url: string, token: string, protocolVersion: string) {
  const auth = { authorization: `Bearer ${token}` };
  const init = await post(url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: `raw-${protocolVersion}`, version: '1' } } }, auth);
  assert.equal(init.status, 200, await init.clone().text());
  const sessionId = init.headers.get('mcp-session-id') ?? '';
  await messagesOf(init);
  const headers = { ...auth, 'mcp-session-id': sessionId, 'mcp-protocol-version': protocolVersion };
  assert.equal((await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status, 202);
  let next = 1;
  return {
    headers,
    async request(method: string, params: Record<string, unknown> = {}, extra: Record<string, string> = {}): Promise<{ status: number; answer: Message | undefined }> {
      const id = next++;
      const response = await post(url, { jsonrpc: '2.0', id, method, params }, { ...headers, ...extra });
      return { status: response.status, answer: (await messagesOf(response)).find((message) => message.id === id) };
    },
  };
}

async function modern(url: string, token: string | undefined, id: number, method: string, params: Record<string, unknown> = {}): Promise<{ status: number; answer: Message | undefined }> {
  const headers = { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}) };
  const response = await post(url, { jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META('raw-modern') } }, headers);
  return { status: response.status, answer: (await messagesOf(response)).find((message) => message.id === id) };
}

/** The SDK's OAuth client provider, kept in memory; the "browser" is the fixture's headless login as `subject`. */
class InMemoryOAuth implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  redirect: URL | undefined;
  constructor(
    private readonly fixture: OidcFixture,
    private readonly subject: string,
  ) {}
  get redirectUrl(): string {
    return 'http://127.0.0.1/oauth/callback';
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: `sdk host of ${this.subject}`, scope: 'openid profile groups', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  asked: URL | undefined;
  async redirectToAuthorization(authorizationUrl: URL) {
    this.asked = authorizationUrl;
    this.redirect = await this.fixture.authorize(authorizationUrl.href, this.subject);
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The SDK v2 client's own OAuth flow: the first connect is refused (401), the provider signs `subject` in, the code is exchanged, the next connect goes through. */
async function sdkHostSignedIn(url: string, fixture: OidcFixture, subject: string, era: 'legacy' | 'modern'): Promise<{ client: Client; oauth: InMemoryOAuth }> {
  const oauth = new InMemoryOAuth(fixture, subject);
  const options = { capabilities: { elicitation: { form: {} }, sampling: {} }, ...(era === 'modern' ? { versionNegotiation: { mode: 'auto' as const } } : {}) };
  const first = new Client({ name: `sdk-${era}`, version: '1' }, options);
  const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: oauth });
  await assert.rejects(first.connect(transport), UnauthorizedError);
  const redirect = oauth.redirect ?? new URL('http://127.0.0.1/oauth/callback?error=not_redirected');
  assert.ok(redirect.searchParams.has('code'), `the provider signed the user in: ${redirect.href} (asked ${oauth.asked?.href})`);
  await transport.finishAuth(redirect.searchParams.get('code') ?? '', redirect.searchParams.get('iss') ?? undefined);
  await first.close().catch(() => undefined);
  const client = new Client({ name: `sdk-${era}`, version: '1' }, options);
  client.setRequestHandler('elicitation/create', () => APPROVE);
  client.setRequestHandler('sampling/createMessage', () => MODEL_REPLY);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: oauth }));
  return { client, oauth };
}

describe('hosts authenticate with OAuth against a real OpenID provider', { timeout: 120_000 }, () => {
  let fixture: OidcFixture;
  let gateway: RunningGateway;
  let ada: string;
  let bob: string;

  before(async () => {
    fixture = await startOidcProvider({ users: USERS, clients: [{ ...SHORT_LIVED, grantTypes: ['client_credentials'], accessTokenTtlSeconds: 1 }] });
    gateway = await startGateway({
      upstreams: { desk: incidentDeskStdio() },
      // No clock tolerance, so that a token of one second is expired two seconds later.
      auth: { hosts: { type: 'oauth', issuer: fixture.issuer, clockTolerance: 0 } },
      policy: { rules: [{ effect: 'deny', groups: ['dev'], tools: ['*restart_service'] }] },
    });
    ada = (await fixture.userToken({ subject: 'ada', resource: gateway.url })).accessToken;
    bob = (await fixture.userToken({ subject: 'bob', resource: gateway.url })).accessToken;
  });
  after(async () => {
    await gateway?.stop();
    await fixture?.close();
  });

  it('answers a host without a token 401 naming the resource metadata, which names the provider', async () => {
    const response = await post(gateway.url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }, {});
    assert.equal(response.status, 401, `${await response.clone().text()}\n${gateway.logs()}`);
    const challenge = response.headers.get('www-authenticate') ?? '';
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    assert.equal(metadataUrl, gateway.url.replace('/mcp', '/.well-known/oauth-protected-resource/mcp'), challenge);
    const metadata = (await (await fetch(metadataUrl ?? '')).json()) as { resource: string; authorization_servers: string[] };
    assert.equal(metadata.resource, gateway.url);
    assert.deepEqual(metadata.authorization_servers, [fixture.issuer]);
    const modernResponse = await modern(gateway.url, undefined, 1, 'tools/list');
    assert.equal(modernResponse.status, 401);
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`lets the SDK v2 client's own OAuth flow reach the gateway and call a tool (${era === 'legacy' ? '2025-11-25' : '2026-07-28'} host)`, async () => {
      const { client, oauth } = await sdkHostSignedIn(gateway.url, fixture, 'ada', era);
      try {
        assert.equal(client.getNegotiatedProtocolVersion(), era === 'legacy' ? '2025-11-25' : '2026-07-28');
        assert.ok(oauth.saved?.access_token, 'the SDK holds the token it got');
        const tools = (await client.listTools()).tools.map((tool) => tool.name);
        assert.ok(tools.includes('restart_service'), tools.join(', '));
        const result = await client.callTool({ name: 'restart_service', arguments: { service: 'payments-api' } });
        assert.notEqual(result.isError, true, JSON.stringify(result));
      } finally {
        await client.close();
      }
    });
  }

  it('serves a 2025-06-18 host with a user token, and hides and refuses restart_service to a principal denied it, in every era', async () => {
    for (const version of ['2025-06-18', '2025-11-25']) {
      const host = await legacyHost(gateway.url, bob, version);
      const listed = (await host.request('tools/list')).answer?.result as { tools: { name: string }[] };
      assert.deepEqual(listed.tools.map((tool) => tool.name), ['summarize_incident'], version);
      const refused = (await host.request('tools/call', { name: 'restart_service', arguments: { service: 'payments-api' } })).answer;
      assert.equal(refused?.error?.code, -32603, version);
      assert.equal(refused?.error?.data?.reason, 'GW_ERR_FORBIDDEN', version);
      const adaHost = await legacyHost(gateway.url, ada, version);
      const adaTools = (await adaHost.request('tools/list')).answer?.result as { tools: { name: string }[] };
      assert.ok(adaTools.tools.some((tool) => tool.name === 'restart_service'), version);
    }
    const listed = (await modern(gateway.url, bob, 1, 'tools/list')).answer?.result as { tools: { name: string }[] };
    assert.deepEqual(listed.tools.map((tool) => tool.name), ['summarize_incident']);
    const refused = (await modern(gateway.url, bob, 2, 'tools/call', { name: 'restart_service', arguments: { service: 'payments-api' } })).answer;
    assert.equal(refused?.error?.data?.reason, 'GW_ERR_FORBIDDEN');
  });

  it('refuses a token for another audience and an expired one', async () => {
    const elsewhere = (await fixture.userToken({ subject: 'ada', resource: 'https://other.example/mcp' })).accessToken;
    const wrongAudience = await post(gateway.url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }, { authorization: `Bearer ${elsewhere}` });
    assert.equal(wrongAudience.status, 401, await wrongAudience.clone().text());
    assert.match(wrongAudience.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
    const shortLived = await fixture.clientCredentialsToken({ ...SHORT_LIVED, resource: gateway.url });
    assert.equal((await modern(gateway.url, shortLived, 1, 'tools/list')).status, 200, 'fresh, it works');
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const expired = await post(gateway.url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }, { authorization: `Bearer ${shortLived}` });
    assert.equal(expired.status, 401);
    assert.match(expired.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
  });

  it('refuses another subject\'s session (404) and requestState, and the owner goes on', async () => {
    const adaHost = await legacyHost(gateway.url, ada, '2025-11-25');
    const stolen = await adaHost.request('tools/list', {}, { authorization: `Bearer ${bob}` });
    assert.equal(stolen.status, 404);
    assert.ok((await adaHost.request('tools/list')).answer?.result, 'the owner is not disturbed');
    // A 2026-07-28 call that asks: ada gets a requestState; bob retrying with it is refused and the upstream never sees it.
    const asked = (await modern(gateway.url, ada, 3, 'tools/call', { name: 'restart_service', arguments: { service: 'payments-api' } })).answer?.result as { resultType: string; requestState: string; inputRequests: Record<string, unknown> };
    assert.equal(asked.resultType, 'input_required');
    const key = Object.keys(asked.inputRequests)[0] ?? '';
    const retry = { name: 'restart_service', arguments: { service: 'payments-api' }, requestState: asked.requestState, inputResponses: { [key]: APPROVE } };
    const foreign = (await modern(gateway.url, bob, 4, 'tools/call', retry)).answer;
    assert.equal(foreign?.error?.data?.reason, 'GW_ERR_REQUEST_STATE_REJECTED', JSON.stringify(foreign));
    const own = (await modern(gateway.url, ada, 5, 'tools/call', retry)).answer?.result;
    assert.notEqual(own?.isError, true, JSON.stringify(own));
  });
});

describe('a host\'s token never reaches an upstream', { timeout: 60_000 }, () => {
  let fixture: OidcFixture;
  let desk: HttpUpstream;
  let recorder: HeaderRecorder;
  let gateway: RunningGateway;

  before(async () => {
    fixture = await startOidcProvider({ users: USERS });
    desk = await startIncidentDeskHttp();
    recorder = await startHeaderRecorder(desk.url);
    gateway = await startGateway({ upstreams: { web: { url: recorder.url } }, auth: { hosts: { type: 'oauth', issuer: fixture.issuer } } });
  });
  after(async () => {
    await gateway?.stop();
    await recorder?.close();
    await desk?.stop();
    await fixture?.close();
  });

  it('sends the upstream none of the host\'s credentials, in either era', async () => {
    const token = (await fixture.userToken({ subject: 'ada', resource: gateway.url })).accessToken;
    const host = await legacyHost(gateway.url, token, '2025-11-25');
    assert.ok((await host.request('tools/list')).answer?.result);
    assert.ok((await modern(gateway.url, token, 1, 'tools/list')).answer?.result);
    assert.ok(recorder.requests.length > 0, 'the upstream was reached through the recorder');
    for (const headers of recorder.requests) {
      assert.equal(headers.authorization, undefined, 'no Authorization header reached the upstream');
      assert.ok(!Object.values(headers).some((value) => String(value).includes(token)), 'the token is in no header');
    }
    assert.ok(!recorder.bodies.some((body) => body.includes(token)), 'the token is in no body');
  });
});

describe('a token without the required scopes is told to step up (403 insufficient_scope)', { timeout: 60_000 }, () => {
  const NARROW = { clientId: 'narrow', clientSecret: 'narrow-secret-0123456789abcdef' };
  const WIDE = { clientId: 'wide', clientSecret: 'wide-secret-0123456789abcdefgh' };
  let fixture: OidcFixture;
  let gateway: RunningGateway;

  before(async () => {
    fixture = await startOidcProvider({
      users: USERS,
      scopes: ['mcp:tools', 'mcp:read'],
      clients: [
        { ...NARROW, grantTypes: ['client_credentials'], scope: 'mcp:read' },
        { ...WIDE, grantTypes: ['client_credentials'], scope: 'mcp:tools mcp:read' },
      ],
    });
    gateway = await startGateway({ upstreams: { desk: incidentDeskStdio() }, auth: { hosts: { type: 'oauth', issuer: fixture.issuer, scopes: ['mcp:tools'] } } });
  });
  after(async () => {
    await gateway?.stop();
    await fixture?.close();
  });

  it('names the required scope in the first challenge and in the 403, and lets a token that holds it through', async () => {
    const anonymous = await post(gateway.url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }, {});
    assert.equal(anonymous.status, 401);
    assert.match(anonymous.headers.get('www-authenticate') ?? '', /scope="mcp:tools"/);
    const narrow = await fixture.clientCredentialsToken({ ...NARROW, resource: gateway.url, scope: 'mcp:read' });
    const refused = await modern(gateway.url, narrow, 1, 'tools/list');
    assert.equal(refused.status, 403);
    const wide = await fixture.clientCredentialsToken({ ...WIDE, resource: gateway.url, scope: 'mcp:tools mcp:read' });
    const allowed = await modern(gateway.url, wide, 2, 'tools/list');
    assert.equal(allowed.status, 200);
    const metadata = (await (await fetch(gateway.url.replace('/mcp', '/.well-known/oauth-protected-resource/mcp'))).json()) as { scopes_supported?: string[] };
    assert.deepEqual(metadata.scopes_supported, ['mcp:tools']);
  });

  it('answers the 403 with error="insufficient_scope" and the scope to ask for', async () => {
    const narrow = await fixture.clientCredentialsToken({ ...NARROW, resource: gateway.url, scope: 'mcp:read' });
    const response = await post(gateway.url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }, { authorization: `Bearer ${narrow}` });
    assert.equal(response.status, 403);
    const challenge = response.headers.get('www-authenticate') ?? '';
    assert.match(challenge, /error="insufficient_scope"/);
    assert.match(challenge, /scope="mcp:tools"/);
  });
});
