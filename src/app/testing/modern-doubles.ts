/** @module Test doubles for 2026-07-28 hosts: modern requests, a recording sink, handle surgery, a gateway before a legacy fake upstream, and what that upstream received. */

import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';

import { fromBase64url, toBase64url } from '../../bridge/base64url.js';
import type { HandleKeyRing } from '../../bridge/handle-keys.js';
import { deriveHandleKey, handleKeyRing } from '../../bridge/handle-keys.js';
import type { UpstreamSpec } from '../../config/types.js';
import type { JsonObject, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../../protocol/jsonrpc.js';
import { isObject } from '../../protocol/jsonrpc.js';
import { parseRequestEnvelope } from '../../protocol/request-envelope.js';
import type { GatewayHandle, ModernExchange, ModernSink } from '../../ports/host-contracts.js';
import { createGateway } from '../gateway.js';
import { silentLogger } from '../../core/log.js';
import type { FakeUpstream, ToolHandler } from '../../upstream/testing/fake-upstream.js';
import { fakeUpstreamFactory } from '../../upstream/testing/fake-upstream.js';
import { config, spec } from './gateway-doubles.js';

/** The whole gateway the tests of 2026-07-28 hosts run against. */
export { createGateway };

const WAIT_MS = 3000;
const CAPS: JsonObject = { elicitation: { form: {} } };
const TICKET = { type: 'object', properties: { confirm: { type: 'boolean' }, ticket: { type: 'string' } }, required: ['confirm', 'ticket'] };
export const RESTART = { mode: 'form', message: 'Restart payments-api?', requestedSchema: TICKET };
export const REGION = { mode: 'form', message: 'Which region?', requestedSchema: { type: 'object', properties: { region: { type: 'string', enum: ['eu', 'us'] } }, required: ['region'] } };
export const ACCEPT = { action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } };

export function keys(): HandleKeyRing {
  return handleKeyRing([deriveHandleKey(randomBytes(32))]);
}

/** A 2026-07-28 request: its params carry the envelope. */
export function modern(id: string | number, method: string, params: JsonObject = {}, capabilities: JsonObject = CAPS): JsonRpcRequest {
  const meta = isObject(params._meta) ? params._meta : {};
  return {
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...params,
      _meta: {
        ...meta,
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': capabilities,
        'io.modelcontextprotocol/clientInfo': { name: 'modern-test-host', version: '1' },
      },
    },
  };
}

/** Records what the gateway sends for one request. */
export class Recorder implements ModernSink {
  readonly notes: JsonRpcNotification[] = [];
  readonly responses: JsonRpcResponse[] = [];
  #wake: (() => void)[] = [];

  notify(message: JsonRpcNotification): void {
    this.notes.push(message);
    this.#wake.splice(0).forEach((wake) => wake());
  }

  respond(message: JsonRpcResponse): void {
    this.responses.push(message);
    this.#wake.splice(0).forEach((wake) => wake());
  }

  async until<T>(find: () => T | undefined, what: string): Promise<T> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#wake.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  response(): Promise<JsonRpcResponse> {
    return this.until(() => this.responses[0], 'the response');
  }

  note(method: string, index = 0): Promise<JsonRpcNotification> {
    return this.until(() => this.notes.filter((n) => n.method === method)[index], method);
  }
}

export interface Served {
  sink: Recorder;
  exchange: ModernExchange;
  response(): Promise<JsonRpcResponse>;
}

export function serve(gateway: GatewayHandle, request: JsonRpcRequest, principal = 'alice'): Served {
  const parsed = parseRequestEnvelope(request.params);
  assert.ok(parsed.ok, 'the test request carries a valid envelope');
  const sink = new Recorder();
  const exchange = gateway.serveModern(request, { principal, envelope: parsed.envelope, transport: 'streamable-http' }, sink);
  return { sink, exchange, response: () => sink.response() };
}

export function resultOf(response: JsonRpcResponse): JsonObject {
  assert.ok('result' in response, `expected a result, got ${JSON.stringify(response)}`);
  return response.result;
}

export function errorOf(response: JsonRpcResponse): { code: number; message: string; data?: unknown } {
  assert.ok('error' in response, `expected an error, got ${JSON.stringify(response)}`);
  return response.error;
}

export function textOf(response: JsonRpcResponse): string {
  const content = resultOf(response).content as { text?: string }[] | undefined;
  return content?.[0]?.text ?? '';
}

/** An input_required result: its keys, its questions and its handle. */
export function inputRequired(response: JsonRpcResponse): { keys: string[]; inputRequests: Record<string, JsonObject>; requestState: string } {
  const result = resultOf(response);
  assert.equal(result.resultType, 'input_required', JSON.stringify(result));
  assert.ok(isObject(result.inputRequests));
  assert.equal(typeof result.requestState, 'string');
  return { keys: Object.keys(result.inputRequests), inputRequests: result.inputRequests as Record<string, JsonObject>, requestState: result.requestState as string };
}

export function assertRejected(response: JsonRpcResponse, failure: string): void {
  const error = errorOf(response);
  assert.equal(error.code, -32602, JSON.stringify(error));
  assert.deepEqual(error.data, { reason: 'GW_ERR_REQUEST_STATE_REJECTED', failure });
}

/** Re-signs a handle after changing its payload (with the gateway's own key): an authentic handle with other claims. */
export function reseal(handle: string, ring: HandleKeyRing, change: (payload: Record<string, unknown>) => void): string {
  const [prefix, payloadText] = handle.split('.');
  const bytes = fromBase64url(payloadText ?? '');
  assert.ok(bytes);
  const payload = JSON.parse(Buffer.from(bytes).toString('utf8')) as Record<string, unknown>;
  change(payload);
  const signed = `${prefix}.${toBase64url(Buffer.from(JSON.stringify(payload), 'utf8'))}`;
  return `${signed}.${toBase64url(createHmac('sha256', ring.signing.secret).update(signed, 'utf8').digest())}`;
}

/** The payload of a handle (it is readable by design). */
export function payloadOf(handle: string): Record<string, unknown> {
  const bytes = fromBase64url(handle.split('.')[1] ?? '');
  assert.ok(bytes);
  return JSON.parse(Buffer.from(bytes).toString('utf8')) as Record<string, unknown>;
}

/** Replaces the character at `index` by another one of the base64url alphabet. */
export function flipAt(text: string, index: number): string {
  const replacement = text[index] === 'A' ? 'B' : 'A';
  return `${text.slice(0, index)}${replacement}${text.slice(index + 1)}`;
}

export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

export async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A gateway in front of one legacy (2025-11-25) fake upstream named `desk`. */
export function legacySetup(tools: Record<string, ToolHandler>, options: { questionTimeoutMs?: number; extra?: Partial<UpstreamSpec> } = {}) {
  const up = fakeUpstreamFactory(tools);
  const cfg = config([spec('desk', 'per-session', options.extra ?? {})]);
  if (options.questionTimeoutMs !== undefined) cfg.questions = { ...cfg.questions, timeoutMs: options.questionTimeoutMs };
  const ring = keys();
  const gateway = createGateway(cfg, { logger: silentLogger, openTransport: () => up.open(), requestState: { keys: ring } });
  return { up, gateway, ring };
}

/** The upstream connection that served tool calls (probes open connections of their own). */
export function caller(up: ReturnType<typeof fakeUpstreamFactory>): FakeUpstream {
  const server = up.servers.find((s) => s.received.some((m) => 'method' in m && m.method === 'tools/call'));
  assert.ok(server, 'an upstream connection received a tools/call');
  return server;
}

export function callsOf(server: FakeUpstream): JsonRpcRequest[] {
  return server.received.filter((m): m is JsonRpcRequest => 'method' in m && 'id' in m && m.method === 'tools/call');
}

/** Responses the upstream got to the requests it sent (its questions), by id. */
export function answersOf(server: FakeUpstream, id?: string): JsonRpcMessage[] {
  return server.received.filter((m) => !('method' in m) && (id === undefined || m.id === id));
}

export function cancellationsOf(server: FakeUpstream): JsonObject[] {
  return server.received.flatMap((m) => ('method' in m && m.method === 'notifications/cancelled' ? [m.params ?? {}] : []));
}

/** A tool that asks RESTART and reports what it was answered. */
export const restart: ToolHandler = async (_call, server) => {
  const answer = await server.ask('elicitation/create', RESTART);
  return { content: [{ type: 'text', text: JSON.stringify('result' in answer ? answer.result : answer) }] };
};

/** A tool that asks RESTART and REGION at once. */
export const both: ToolHandler = async (_call, server) => {
  const [first, second] = await Promise.all([server.ask('elicitation/create', RESTART), server.ask('elicitation/create', REGION)]);
  const results = [first, second].map((answer) => ('result' in answer ? answer.result : answer));
  return { content: [{ type: 'text', text: JSON.stringify(results) }] };
};

export const callRestart = (id: string | number, extra: JsonObject = {}) => modern(id, 'tools/call', { name: 'restart', arguments: { service: 'payments-api' }, ...extra });

/** Parks a restart call for `alice` and returns its key and handle. */
export async function parked(gateway: GatewayHandle): Promise<{ key: string; handle: string }> {
  const round = inputRequired(await serve(gateway, callRestart('first')).response());
  return { key: round.keys[0] as string, handle: round.requestState };
}

/** Proves the parked call is intact: the genuine retry still resumes it and the upstream gets exactly that answer. */
export async function resumesAfterwards(gateway: GatewayHandle, up: ReturnType<typeof fakeUpstreamFactory>, key: string, handle: string): Promise<void> {
  assert.equal(answersOf(caller(up)).length, 0, 'the upstream got no answer from the refused retry');
  const done = await serve(gateway, callRestart('genuine', { inputResponses: { [key]: ACCEPT }, requestState: handle })).response();
  assert.equal(textOf(done), JSON.stringify(ACCEPT));
  assert.equal(answersOf(caller(up)).length, 1);
}
