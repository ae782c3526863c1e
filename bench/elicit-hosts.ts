/**
 * @module Bench asking hosts: raw-fetch hosts that call the incident desk's `restart_service` and approve its question
 * at once. A legacy host (2025-11-25 or 2025-06-18) reads the call's SSE stream, POSTs the answer to the
 * `elicitation/create` it finds there and reads on to the result; a 2026-07-28 host makes the two requests of an
 * `input_required` round (the call, then the retry carrying `inputResponses` and `requestState`).
 */

import { readSseEvents } from '../src/upstream/transport/sse/sse-events.js';
import { ENVELOPE_KEYS, MODERN_REVISION, modernHeaders } from '../test/e2e/harness/modern-host.js';

/** The tool that asks, and the service it restarts. */
export const ASKING_TOOL = 'restart_service';
export const SERVICE = 'payments-api';
/** The answer every bench host gives: approve, with a ticket. */
export const APPROVAL = { action: 'accept', content: { confirm: true, ticket: 'CHG-1' } } as const;

/** The kinds of host the elicitation cells use. */
export type HostKind = '2025-11-25' | '2025-06-18' | '2026-07-28';

/** One host session doing round trips (a tools/call whose question is answered) one after the other. */
export interface AskingHost {
  roundTrip(): Promise<void>;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a message read on a legacy call's stream asks of the host: answer a question, take the result, or nothing. */
export type StreamStep = { kind: 'question'; id: string | number } | { kind: 'result'; result: unknown } | { kind: 'error'; message: string } | { kind: 'other' };

export function classifyStreamMessage(message: unknown, callId: number): StreamStep {
  if (!isObject(message)) return { kind: 'other' };
  if (message.method === 'elicitation/create' && (typeof message.id === 'string' || typeof message.id === 'number')) return { kind: 'question', id: message.id };
  if (message.id === callId && message.method === undefined) {
    if (isObject(message.error)) return { kind: 'error', message: `JSON-RPC error ${String(message.error.code)} ${String(message.error.message)}` };
    return { kind: 'result', result: message.result };
  }
  return { kind: 'other' };
}

function firstText(result: unknown): string | undefined {
  const content = isObject(result) && Array.isArray(result.content) ? (result.content as unknown[]) : [];
  const text = isObject(content[0]) ? content[0].text : undefined;
  return typeof text === 'string' ? text : undefined;
}

/** A tool result in a few words for an error message: a tool error's text, else the start of its JSON. */
export function describeResult(result: unknown): string {
  const text = firstText(result);
  if (isObject(result) && result.isError === true && text !== undefined) return `a tool error "${text.slice(0, 160)}"`;
  return (JSON.stringify(result) ?? String(result)).slice(0, 200);
}

/** Throws unless a tool result says the service was restarted (the approval reached the upstream). */
export function checkRestarted(result: unknown): void {
  const text = firstText(result);
  if (!isObject(result) || result.isError === true || text === undefined || !text.startsWith('RESTARTED')) {
    throw new Error(`unexpected tool result: ${describeResult(result)}`);
  }
}

/** The one question of a 2026-07-28 `input_required` result: its key and the state to send back. */
export function readInputRequired(result: unknown): { key: string; requestState: string } {
  const requests = isObject(result) && isObject(result.inputRequests) ? Object.keys(result.inputRequests) : [];
  const [key] = requests;
  if (!isObject(result) || result.resultType !== 'input_required' || typeof result.requestState !== 'string') {
    throw new Error(`expected input_required with a requestState, got ${describeResult(result)}`);
  }
  if (key === undefined || requests.length !== 1) throw new Error(`expected input_required with one input request, got ${requests.length} (${requests.join(', ')})`);
  return { key, requestState: result.requestState };
}

/** fetch's "fetch failed" with the reason undici keeps in `cause`. */
function withCause(error: unknown): Error {
  if (!(error instanceof Error)) return new Error(String(error));
  const cause = error.cause as { code?: string } | undefined;
  return cause?.code ? new Error(`${error.message} (${cause.code})`) : error;
}

async function post(url: string, headers: Record<string, string>, body: unknown, timeoutMs: number): Promise<Response> {
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) }).catch((error: unknown) => {
    throw withCause(error);
  });
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    throw new Error(`HTTP ${response.status} ${text.slice(0, 160)}`.trim());
  }
  return response;
}

/** The JSON-RPC messages of a response, SSE or JSON, in order. */
async function* messagesOf(response: Response): AsyncGenerator<unknown> {
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream') && response.body) {
    for await (const event of readSseEvents(response.body)) if (event.data !== '') yield JSON.parse(event.data);
    return;
  }
  const payload: unknown = await response.json();
  yield* Array.isArray(payload) ? payload : [payload];
}

/** A sessionful host of 2025-11-25 or 2025-06-18 with form elicitation. */
class LegacyHost implements AskingHost {
  private nextId = 1;
  private sessionId: string | undefined;

  constructor(
    private readonly url: string,
    private readonly version: '2025-11-25' | '2025-06-18',
    private readonly tool: string,
    private readonly timeoutMs: number,
  ) {}

  private headers(): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': this.version };
    if (this.sessionId) headers['mcp-session-id'] = this.sessionId;
    return headers;
  }

  async open(): Promise<void> {
    const capabilities = this.version === '2025-06-18' ? { elicitation: {} } : { elicitation: { form: {} } };
    const id = this.nextId++;
    const params = { protocolVersion: this.version, capabilities, clientInfo: { name: 'switchboard-bench', version: '1.0.0' } };
    const response = await post(this.url, this.headers(), { jsonrpc: '2.0', id, method: 'initialize', params }, this.timeoutMs);
    this.sessionId = response.headers.get('mcp-session-id') ?? undefined;
    for await (const message of messagesOf(response)) {
      const step = classifyStreamMessage(message, id);
      if (step.kind === 'error') throw new Error(`initialize: ${step.message}`);
      if (step.kind === 'result') break;
    }
    await (await post(this.url, this.headers(), { jsonrpc: '2.0', method: 'notifications/initialized' }, this.timeoutMs)).body?.cancel();
  }

  async listTools(): Promise<string[]> {
    const id = this.nextId++;
    for await (const message of messagesOf(await post(this.url, this.headers(), { jsonrpc: '2.0', id, method: 'tools/list' }, this.timeoutMs))) {
      const step = classifyStreamMessage(message, id);
      if (step.kind === 'error') throw new Error(`tools/list: ${step.message}`);
      if (step.kind === 'result') return isObject(step.result) && Array.isArray(step.result.tools) ? step.result.tools.map((tool: { name?: unknown }) => String(tool.name)) : [];
    }
    return [];
  }

  async roundTrip(): Promise<void> {
    const id = this.nextId++;
    const call = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: this.tool, arguments: { service: SERVICE } } };
    const response = await post(this.url, this.headers(), call, this.timeoutMs);
    let asked = 0;
    for await (const message of messagesOf(response)) {
      const step = classifyStreamMessage(message, id);
      if (step.kind === 'question') {
        asked += 1;
        const answer = await post(this.url, this.headers(), { jsonrpc: '2.0', id: step.id, result: APPROVAL }, this.timeoutMs);
        await answer.body?.cancel();
      } else if (step.kind === 'error') throw new Error(`tools/call: ${step.message}`);
      else if (step.kind === 'result') {
        if (asked === 0) throw new Error(`no elicitation/create reached the host on the call's stream; the call ended with ${describeResult(step.result)}`);
        if (asked !== 1) throw new Error(`expected one question on the call's stream, got ${asked}`);
        checkRestarted(step.result);
        return; // leaving the loop cancels the body
      }
    }
    throw new Error('the call stream ended without a result');
  }

  async close(): Promise<void> {
    if (!this.sessionId) return;
    try {
      await (await fetch(this.url, { method: 'DELETE', headers: this.headers(), signal: AbortSignal.timeout(this.timeoutMs) })).body?.cancel();
    } catch {
      // the server may already be gone
    }
  }
}

/** A 2026-07-28 host: no session, the envelope on every request, a question answered by a retry. */
class ModernHost implements AskingHost {
  private nextId = 1;

  constructor(
    private readonly url: string,
    private readonly tool: string,
    private readonly timeoutMs: number,
  ) {}

  private async call(extra: Json): Promise<unknown> {
    const id = this.nextId++;
    const meta = {
      [ENVELOPE_KEYS.protocolVersion]: MODERN_REVISION,
      [ENVELOPE_KEYS.clientCapabilities]: { elicitation: { form: {} } },
      [ENVELOPE_KEYS.clientInfo]: { name: 'switchboard-bench', version: '1.0.0' },
    };
    const message = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: this.tool, arguments: { service: SERVICE }, ...extra, _meta: meta } };
    const response = await post(this.url, modernHeaders(message), message, this.timeoutMs);
    for await (const received of messagesOf(response)) {
      const step = classifyStreamMessage(received, id);
      if (step.kind === 'error') throw new Error(`tools/call: ${step.message}`);
      if (step.kind === 'result') return step.result;
    }
    throw new Error('no response to tools/call');
  }

  async roundTrip(): Promise<void> {
    const { key, requestState } = readInputRequired(await this.call({}));
    const done = await this.call({ inputResponses: { [key]: APPROVAL }, requestState });
    if (!isObject(done) || (done.resultType !== undefined && done.resultType !== 'complete')) throw new Error(`expected a complete result, got ${JSON.stringify(done).slice(0, 200)}`);
    checkRestarted(done);
  }

  async close(): Promise<void> {}

  /** Names of the tools (first page), through a 2026-07-28 tools/list. */
  static async toolNames(url: string, timeoutMs: number): Promise<string[]> {
    const meta = {
      [ENVELOPE_KEYS.protocolVersion]: MODERN_REVISION,
      [ENVELOPE_KEYS.clientCapabilities]: {},
      [ENVELOPE_KEYS.clientInfo]: { name: 'switchboard-bench', version: '1.0.0' },
    };
    const message = { jsonrpc: '2.0', id: 0, method: 'tools/list', params: { _meta: meta } };
    for await (const received of messagesOf(await post(url, modernHeaders(message), message, timeoutMs))) {
      const step = classifyStreamMessage(received, 0);
      if (step.kind === 'result') return isObject(step.result) && Array.isArray(step.result.tools) ? step.result.tools.map((tool: { name?: unknown }) => String(tool.name)) : [];
      if (step.kind === 'error') throw new Error(`tools/list: ${step.message}`);
    }
    return [];
  }
}

/** Opens a host of `kind` on `url`, calling `tool`. */
export async function openAskingHost(kind: HostKind, url: string, tool: string, timeoutMs: number): Promise<AskingHost> {
  if (kind === '2026-07-28') return new ModernHost(url, tool, timeoutMs);
  const host = new LegacyHost(url, kind, tool, timeoutMs);
  await host.open();
  return host;
}

/** The target's name for the asking tool: `restart_service` or a gateway-prefixed variant, found by a tools/list. */
export async function findAskingTool(kind: HostKind, url: string, timeoutMs: number): Promise<string> {
  let names: string[];
  if (kind === '2026-07-28') names = await ModernHost.toolNames(url, timeoutMs);
  else {
    const host = new LegacyHost(url, kind, ASKING_TOOL, timeoutMs);
    await host.open();
    names = await host.listTools().finally(() => host.close());
  }
  const tool = names.find((name) => name === ASKING_TOOL) ?? names.find((name) => name.endsWith(ASKING_TOOL));
  if (!tool) throw new Error(`no ${ASKING_TOOL} tool in tools/list (${names.join(', ') || 'empty'})`);
  return tool;
}
