/** @module incident-desk/http.test: the real process over Streamable HTTP with raw `fetch`, replaying the restart vector. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { VECTOR_ANSWER_RESULT, VECTOR_CALL, VECTOR_ELICIT_PARAMS, VECTOR_FINAL_RESULT, VECTOR_PROTOCOL_VERSION } from './testing/restart-vector.js';
import { type HttpProcess, spawnHttpIncidentDesk } from './testing/spawn-http.js';
import { sseMessages } from './testing/sse.js';

const ACCEPT = 'application/json, text/event-stream';
type Message = { id?: unknown; method?: string; params?: unknown; result?: Record<string, unknown>; error?: unknown };

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers }, body: JSON.stringify(body) });
}

async function onlyMessage(response: Response): Promise<Message> {
  assert.ok(response.body);
  const messages: Message[] = [];
  for await (const message of sseMessages(response.body)) messages.push(message as Message);
  assert.equal(messages.length, 1);
  return messages[0] as Message;
}

/** initialize + notifications/initialized at `protocolVersion`; returns the headers every later POST needs. */
async function openSession(url: string, protocolVersion: string, capabilities: Record<string, unknown>): Promise<Record<string, string>> {
  const init = await post(url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities, clientInfo: { name: 'raw-fetch-host', version: '1.0.0' } } });
  assert.equal(init.status, 200);
  const sessionId = init.headers.get('mcp-session-id');
  assert.ok(sessionId, 'the server is sessionful');
  const answer = await onlyMessage(init);
  assert.equal(answer.result?.protocolVersion, protocolVersion);
  const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': protocolVersion };
  const initialized = await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  assert.equal(initialized.status, 202);
  return headers;
}

describe('incident-desk over --http, raw fetch', () => {
  let desk: HttpProcess;
  before(async () => {
    desk = await spawnHttpIncidentDesk();
  });
  after(async () => {
    await desk.stop();
    assert.equal(desk.stdout(), '', 'HTTP mode writes nothing to stdout');
  });

  test('restart_service replays the vector: question on the POST stream, 202 for the answer, exact final result', async () => {
    const headers = await openSession(desk.url, VECTOR_PROTOCOL_VERSION, { elicitation: { form: {} } });
    assert.equal(VECTOR_CALL.id, 7);
    const call = await post(desk.url, VECTOR_CALL, headers);
    assert.equal(call.status, 200);
    assert.match(call.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.ok(call.body);

    const stream = sseMessages(call.body);
    const first = await stream.next();
    assert.equal(first.done, false);
    const question = first.value as Message;
    assert.equal(question.method, 'elicitation/create');
    assert.ok(typeof question.id === 'string' || Number.isInteger(question.id));
    assert.deepEqual(question.params, VECTOR_ELICIT_PARAMS);

    const answered = await post(desk.url, { jsonrpc: '2.0', id: question.id, result: VECTOR_ANSWER_RESULT }, headers);
    assert.equal(answered.status, 202);

    const rest: Message[] = [];
    for await (const message of stream) rest.push(message as Message);
    assert.equal(rest.length, 1, 'the final result is the last event, then the stream closes');
    assert.deepEqual(rest[0], { jsonrpc: '2.0', id: 7, result: VECTOR_FINAL_RESULT });
  });

  test('a session negotiated at 2024-11-05 keeps that revision', async () => {
    await openSession(desk.url, '2024-11-05', {});
  });

  test('a request without a session id gets 400; an unknown session id gets 404', async () => {
    const missing = await post(desk.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    assert.equal(missing.status, 400);
    const unknown = await post(desk.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': 'no-such-session' });
    assert.equal(unknown.status, 404);
  });

  test('a foreign Host header is refused (DNS rebinding guard)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(desk.url, { method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json', accept: ACCEPT } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }));
    });
    assert.equal(status, 403);
  });
});
