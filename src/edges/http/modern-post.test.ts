/**
 * @module The 2026-07-28 side of `/mcp`: a modern POST reaches `serveModern` with its envelope and a principal; the header,
 * version and era checks refuse with the right status and code; JSON for an immediate answer, SSE once a notification comes
 * first (closing it cancels the exchange); GET and DELETE are 405 for modern clients; legacy requests are untouched.
 */

import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';

import { eventually } from '../../core/testing/deadlines.js';
import type { McpHttpHandler } from './mcp-handler.js';
import type { FakeGateway } from './testing/fake-gateway.js';
import { fakeMcpEdge } from './testing/fake-gateway.js';
import { BASE, mcpPost, messagesOf, openTestSession, readSse } from './testing/sse.js';
import { testHttpSettings } from './testing/http-settings.js';

const SETTINGS = testHttpSettings();
const REVISION = '2026-07-28';
const CAPABILITIES = { elicitation: { form: {} } };
const CLIENT = { name: 'modern-host', version: '3.1' };

function envelope(version = REVISION): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': CAPABILITIES,
    'io.modelcontextprotocol/clientInfo': CLIENT,
  };
}

/** A tools/call body with the envelope. */
function callBody(id: number | string, name: string, args: Record<string, unknown> = {}, version = REVISION): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: envelope(version) } };
}

/** The headers a well-behaved 2026-07-28 client sends with a tools/call of `name`. */
function modernHeaders(name: string | undefined, extra: Record<string, string> = {}): Record<string, string> {
  return { 'mcp-protocol-version': REVISION, 'mcp-method': 'tools/call', ...(name === undefined ? {} : { 'mcp-name': name }), ...extra };
}

async function expectJsonError(response: Response, status: number, code: number, id: unknown = 1): Promise<{ code: number; message: string; data?: Record<string, unknown> }> {
  assert.equal(response.status, status);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  const body = (await response.json()) as { jsonrpc: string; id: unknown; error: { code: number; message: string; data?: Record<string, unknown> } };
  assert.equal(body.jsonrpc, '2.0');
  assert.equal(body.id, id);
  assert.equal(body.error.code, code, JSON.stringify(body.error));
  return body.error;
}

describe('2026-07-28 POSTs on /mcp', () => {
  let gateway: FakeGateway;
  let handler: McpHttpHandler;
  const handle = (req: Request) => handler.handle(req);

  beforeEach(() => {
    ({ gateway, handler } = fakeMcpEdge(SETTINGS));
  });

  it('a modern POST reaches serveModern with the parsed envelope and a principal, and is answered with JSON', async () => {
    const response = await handle(mcpPost(callBody(1, 'echo', { text: 'hi' }), modernHeaders('echo')));
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(response.headers.get('mcp-session-id'), null, 'no session');
    assert.deepEqual(await response.json(), { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }], resultType: 'complete' } });
    assert.equal(gateway.sessions.length, 0, 'no host session was opened');
    assert.equal(gateway.modern.length, 1);
    const [entry] = gateway.modern;
    assert.ok(entry);
    assert.equal(entry.request.method, 'tools/call');
    assert.equal(entry.request.id, 1);
    assert.deepEqual(entry.context.envelope, { protocolVersion: REVISION, clientCapabilities: CAPABILITIES, clientInfo: CLIENT });
    assert.equal(entry.context.transport, 'streamable-http');
    assert.equal(typeof entry.context.principal, 'string');
    assert.ok(entry.context.principal.length > 0);
    assert.equal(entry.cancelled, undefined);
  });

  it('an error answer takes the status of its code (-32601 → 404)', async () => {
    const body = { jsonrpc: '2.0', id: 4, method: 'prompts/list', params: { _meta: envelope() } };
    await expectJsonError(await handle(mcpPost(body, { 'mcp-protocol-version': REVISION, 'mcp-method': 'prompts/list' })), 404, -32601, 4);
  });

  it('Mcp-Name differing from params.name is 400 -32020 naming the header; nothing is served', async () => {
    const error = await expectJsonError(await handle(mcpPost(callBody(1, 'echo'), modernHeaders('other'))), 400, -32020);
    assert.equal(String(error.data?.header).toLowerCase(), 'mcp-name');
    assert.equal(gateway.modern.length, 0);
  });

  it('a missing Mcp-Method is 400 -32020 naming the header', async () => {
    const headers = modernHeaders('echo');
    delete headers['mcp-method'];
    const error = await expectJsonError(await handle(mcpPost(callBody(1, 'echo'), headers)), 400, -32020);
    assert.equal(String(error.data?.header).toLowerCase(), 'mcp-method');
    assert.equal(gateway.modern.length, 0);
  });

  it('a version this gateway does not serve (2099-01-01, header and envelope agreeing) is 400 -32022 listing the supported ones', async () => {
    const response = await handle(mcpPost(callBody(1, 'echo', {}, '2099-01-01'), modernHeaders('echo', { 'mcp-protocol-version': '2099-01-01' })));
    const error = await expectJsonError(response, 400, -32022);
    assert.ok(Array.isArray(error.data?.supported));
    assert.ok((error.data.supported as string[]).includes(REVISION));
    assert.equal(error.data.requested, '2099-01-01');
    assert.equal(gateway.modern.length, 0);
  });

  it('an envelope version that differs from MCP-Protocol-Version is 400 -32020', async () => {
    const response = await handle(mcpPost(callBody(1, 'echo', {}, '2099-01-01'), modernHeaders('echo')));
    const error = await expectJsonError(response, 400, -32020);
    assert.equal(String(error.data?.header).toLowerCase(), 'mcp-protocol-version');
    assert.equal(gateway.modern.length, 0);
  });

  it('an envelope together with an Mcp-Session-Id is refused with 400 (the request mixes eras)', async () => {
    const { sessionId } = await openTestSession(handle);
    const received = gateway.last.received.length;
    const response = await handle(mcpPost(callBody(1, 'echo'), modernHeaders('echo', { 'mcp-session-id': sessionId })));
    await expectJsonError(response, 400, -32600);
    assert.equal(gateway.modern.length, 0);
    assert.equal(gateway.last.received.length, received, 'the session got nothing');
  });

  it('a notification first turns the answer into an SSE stream; closing it cancels the exchange', async () => {
    const response = await handle(mcpPost(callBody('h1', 'hold'), modernHeaders('hold')));
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    const stream = readSse(response);
    const first = await stream.nextMessage();
    assert.deepEqual(first, { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1 } });
    const [entry] = gateway.modern;
    assert.ok(entry);
    assert.equal(entry.cancelled, undefined, 'not cancelled while the stream is open');
    await stream.cancel();
    await eventually(() => entry.cancelled !== undefined, 'the exchange to be cancelled');
    assert.equal(typeof entry.cancelled, 'string');
  });

  it('a modern notification is accepted with 202 and handed to nobody', async () => {
    const body = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: envelope() } };
    const response = await handle(mcpPost(body, { 'mcp-protocol-version': REVISION, 'mcp-method': 'notifications/cancelled' }));
    assert.equal(response.status, 202);
    assert.equal(gateway.modern.length, 0);
    assert.equal(gateway.sessions.length, 0);
  });

  it('GET and DELETE with MCP-Protocol-Version 2026-07-28 and no session are 405 (POST only)', async () => {
    const get = await handle(new Request(`${BASE}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-protocol-version': REVISION } }));
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
    await get.body?.cancel();
    const del = await handle(new Request(`${BASE}/mcp`, { method: 'DELETE', headers: { 'mcp-protocol-version': REVISION } }));
    assert.equal(del.status, 405);
    assert.equal(del.headers.get('allow'), 'POST');
    await del.body?.cancel();
    assert.equal(gateway.sessions.length, 0);
  });

  it('the principal differs with different Authorization headers and is the same for the same one', async () => {
    const post = async (authorization: string | undefined) => {
      const headers = modernHeaders('echo', authorization === undefined ? {} : { authorization });
      const response = await handle(mcpPost(callBody(1, 'echo', { text: 'x' }), headers));
      assert.equal(response.status, 200);
      await response.body?.cancel();
      const entry = gateway.modern.at(-1);
      assert.ok(entry);
      return entry.context.principal;
    };
    const alice = await post('Bearer alice-token');
    const aliceAgain = await post('Bearer alice-token');
    const bob = await post('Bearer bob-token');
    const nobody = await post(undefined);
    assert.equal(alice, aliceAgain);
    assert.notEqual(alice, bob);
    assert.notEqual(alice, nobody);
    assert.notEqual(bob, nobody);
    assert.doesNotMatch(alice, /alice-token/, 'the token itself is not the principal');
  });

  it('legacy requests still work as before: initialize opens a session, a call on it is answered on its stream', async () => {
    const { headers, initResult } = await openTestSession(handle);
    assert.equal(initResult.protocolVersion, '2025-11-25');
    const response = await handle(mcpPost({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'legacy' } } }, headers));
    assert.equal(response.status, 200);
    const messages = messagesOf(await readSse(response).rest());
    assert.deepEqual(messages.at(-1), { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'legacy' }] } });
    assert.equal(gateway.modern.length, 0, 'nothing went the modern way');
    const noSession = await handle(mcpPost({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, { 'mcp-protocol-version': '2025-11-25' }));
    assert.equal(noSession.status, 400, 'a legacy request without a session is still refused as before');
    await noSession.body?.cancel();
  });
});
