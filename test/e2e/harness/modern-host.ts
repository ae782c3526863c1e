/**
 * @module e2e/harness/modern-host: minimal 2026-07-28 ("modern") hosts written without the SDK. Over Streamable HTTP:
 * one POST per request, the `_meta` envelope in the body and the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name`
 * headers, every exchange recorded raw (status, headers, body) so a failure shows exactly what the gateway sent. Over
 * stdio: the same messages as newline-delimited JSON to a `switchboard stdio` child. Plus a fetch wrapper that records
 * the HTTP exchanges of an SDK client the same way.
 */
import { type ChildProcess, spawn } from 'node:child_process';

import { parseSseText } from '../../../src/upstream/transport/sse/sse-events.js';
import { stopChild } from './child.js';
import { gatewayEnv } from './gateway.js';
import { REPO_ROOT, SWITCHBOARD_BIN } from './paths.js';
import { ACCEPT_BOTH } from './raw-host.js';
import { type WireMessage } from './sse-reader.js';
import { nextWake } from './wait.js';

export const MODERN_REVISION = '2026-07-28';

/** The reserved `_meta` keys of a 2026-07-28 request. */
export const ENVELOPE_KEYS = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
} as const;

/** Bound for one HTTP exchange (request sent, whole body read) or one stdio answer. */
export const EXCHANGE_TIMEOUT_MS = 15_000;

export interface ModernHostOptions {
  /** The capabilities declared on every request (2026 form). Default: form elicitation and sampling. */
  readonly capabilities?: Record<string, unknown>;
  readonly clientInfo?: { name: string; version: string };
  readonly timeoutMs?: number;
}

export const MODERN_HOST_INFO = { name: 'modern-raw-e2e-host', version: '1.0.0' } as const;
export const MODERN_CAPABILITIES = { elicitation: { form: {} }, sampling: {} } as const;

/** One HTTP exchange as it crossed the wire. */
export interface HttpExchange {
  readonly request: { readonly method: string; readonly headers: Record<string, string>; readonly body: string };
  readonly status: number;
  readonly headers: Record<string, string>;
  /** The response body exactly as received (up to the bound). */
  readonly body: string;
  /** False when the body had not ended within the bound (then `body` is what had arrived). */
  readonly ended: boolean;
  /** The JSON-RPC messages in the body (SSE events or one JSON document); empty if none parsed. */
  readonly messages: WireMessage[];
}

/** Header values that are not plain printable ASCII are sent as `=?base64?…?=` (as is one that looks like that). */
export function encodeHeaderValue(value: string): string {
  const plain = /^[\x20-\x7e]*$/.test(value) && !/^=\?base64\?.*\?=$/.test(value) && value.trim() === value;
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** The 2026-07-28 HTTP headers a request must carry, derived from its body. */
export function modernHeaders(message: WireMessage): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: ACCEPT_BOTH,
    'mcp-protocol-version': MODERN_REVISION,
  };
  if (message.method !== undefined) headers['mcp-method'] = message.method;
  const params = message.params ?? {};
  const name = message.method === 'resources/read' ? params.uri : message.method === 'tools/call' || message.method === 'prompts/get' ? params.name : undefined;
  if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name);
  return headers;
}

function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => (out[key] = value));
  return out;
}

/** JSON-RPC messages in a response body: SSE events or one JSON document (nothing parsable: none). */
export function parseBody(contentType: string, body: string): WireMessage[] {
  try {
    if (contentType.startsWith('text/event-stream')) {
      return parseSseText(body)
        .filter((event) => event.data !== '')
        .map((event) => JSON.parse(event.data) as WireMessage);
    }
    return body.trim() === '' ? [] : [JSON.parse(body) as WireMessage];
  } catch {
    return [];
  }
}

/** Reads `response.body` to its end or until `timeoutMs` (then cancels it), whichever comes first; never throws. */
async function readBounded(response: Response, timeoutMs: number, onTimeout: () => void = () => undefined): Promise<{ body: string; ended: boolean }> {
  if (!response.body) return { body: '', ended: true };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let body = '';
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    onTimeout();
    void reader.cancel().catch(() => undefined);
  }, timeoutMs);
  timer.unref();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { body: body + decoder.decode(), ended: !timedOut };
      body += decoder.decode(value, { stream: true });
    }
  } catch {
    return { body, ended: false };
  } finally {
    clearTimeout(timer);
  }
}

/** Sends one HTTP request and records the whole exchange (the body read to its end, bounded). */
export async function exchange(url: string, init: { method: string; headers: Record<string, string>; body?: string }, timeoutMs = EXCHANGE_TIMEOUT_MS): Promise<HttpExchange> {
  const abort = new AbortController();
  const connectTimer = setTimeout(() => abort.abort(), timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { method: init.method, headers: init.headers, body: init.body, signal: abort.signal });
  } finally {
    clearTimeout(connectTimer);
  }
  const { body, ended } = await readBounded(response, timeoutMs, () => abort.abort());
  const headers = headersOf(response.headers);
  return {
    request: { method: init.method, headers: init.headers, body: init.body ?? '' },
    status: response.status,
    headers,
    body,
    ended,
    messages: parseBody(headers['content-type'] ?? '', body),
  };
}

/** A readable dump of exchanges, for assertion messages and reports. */
export function formatExchanges(exchanges: readonly HttpExchange[]): string {
  return exchanges
    .map((entry, index) => {
      const requestHeaders = Object.entries(entry.request.headers)
        .map(([key, value]) => `${key}: ${value}`)
        .join('\n    ');
      const responseHeaders = Object.entries(entry.headers)
        .filter(([key]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(key))
        .map(([key, value]) => `${key}: ${value}`)
        .join('\n    ');
      return [
        `[${index + 1}] ${entry.request.method}\n    ${requestHeaders}\n    ${entry.request.body}`,
        `  -> HTTP ${entry.status}${entry.ended ? '' : ' (body still open at the bound)'}\n    ${responseHeaders}\n    ${entry.body.trim().split('\n').join('\n    ')}`,
      ].join('\n');
    })
    .join('\n');
}

/** Extra params of a retry: the answers keyed as asked, and the state echoed byte for byte (absent if absent). */
export interface RetryInput {
  readonly inputResponses?: Record<string, unknown>;
  readonly requestState?: string;
}

/** The response to one request and the exchange that carried it. */
export interface ModernAnswer {
  readonly response: WireMessage;
  readonly exchange: HttpExchange;
}

/** A 2026-07-28 host over Streamable HTTP: no initialize, no session, every request self-describing. */
export class ModernHttpHost {
  readonly url: string;
  readonly capabilities: Record<string, unknown>;
  readonly clientInfo: { name: string; version: string };
  /** Every HTTP exchange this host made, in order. */
  readonly exchanges: HttpExchange[] = [];
  readonly #timeoutMs: number;
  #nextId = 1;

  constructor(url: string, options: ModernHostOptions = {}) {
    this.url = url;
    this.capabilities = options.capabilities ?? structuredClone(MODERN_CAPABILITIES);
    this.clientInfo = options.clientInfo ?? MODERN_HOST_INFO;
    this.#timeoutMs = options.timeoutMs ?? EXCHANGE_TIMEOUT_MS;
  }

  /** The `_meta` envelope every request of this host carries. */
  envelope(): Record<string, unknown> {
    return {
      [ENVELOPE_KEYS.protocolVersion]: MODERN_REVISION,
      [ENVELOPE_KEYS.clientCapabilities]: this.capabilities,
      [ENVELOPE_KEYS.clientInfo]: this.clientInfo,
    };
  }

  /** A request with a fresh id and the envelope merged into `params._meta`. */
  message(method: string, params: Record<string, unknown> = {}): WireMessage {
    const meta = (params._meta ?? {}) as Record<string, unknown>;
    return { jsonrpc: '2.0', id: this.#nextId++, method, params: { ...params, _meta: { ...meta, ...this.envelope() } } };
  }

  /** POSTs exactly `message` with the headers derived from it (plus `extraHeaders`); records the exchange. */
  async post(message: WireMessage, extraHeaders: Record<string, string> = {}): Promise<HttpExchange> {
    const recorded = await exchange(this.url, { method: 'POST', headers: { ...modernHeaders(message), ...extraHeaders }, body: JSON.stringify(message) }, this.#timeoutMs);
    this.exchanges.push(recorded);
    return recorded;
  }

  /** Sends `method` and returns the message that answers it; throws (with the whole transcript) if none does. */
  async request(method: string, params: Record<string, unknown> = {}): Promise<ModernAnswer> {
    const message = this.message(method, params);
    const recorded = await this.post(message);
    const response = recorded.messages.find((entry) => entry.id === message.id && entry.method === undefined);
    if (!response) throw new Error(`${method}: no JSON-RPC response for id ${message.id}\n${this.transcript()}`);
    return { response, exchange: recorded };
  }

  /** tools/call `name`; a retry adds `inputResponses` and `requestState` to the same params (a new id). */
  callTool(name: string, args: Record<string, unknown>, retry: RetryInput = {}): Promise<ModernAnswer> {
    return this.request('tools/call', { name, arguments: args, ...retryFields(retry) });
  }

  transcript(): string {
    return formatExchanges(this.exchanges);
  }
}

function retryFields(retry: RetryInput): Record<string, unknown> {
  return {
    ...(retry.inputResponses !== undefined && { inputResponses: retry.inputResponses }),
    ...(retry.requestState !== undefined && { requestState: retry.requestState }),
  };
}

/** One line the stdio host wrote or read. */
export interface StdioLine {
  readonly direction: 'host->gateway' | 'gateway->host';
  readonly line: string;
}

/** Stdio servers still running; the last resort if a test file dies without its cleanup: none outlives the runner. */
const liveStdio = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of liveStdio) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** A 2026-07-28 host over the stdio of `switchboard stdio --config FILE`: newline-delimited JSON, no headers. */
export class ModernStdioHost {
  readonly capabilities: Record<string, unknown>;
  readonly clientInfo: { name: string; version: string };
  /** Every line either way, in order. */
  readonly lines: StdioLine[] = [];
  readonly #child: ChildProcess;
  readonly #exited: Promise<unknown>;
  readonly #timeoutMs: number;
  readonly #waiters = new Set<() => void>();
  #stderr = '';
  #pending = '';
  #nextId = 1;
  #stopping: Promise<void> | undefined;

  private constructor(child: ChildProcess, options: ModernHostOptions) {
    this.#child = child;
    this.capabilities = options.capabilities ?? structuredClone(MODERN_CAPABILITIES);
    this.clientInfo = options.clientInfo ?? MODERN_HOST_INFO;
    this.#timeoutMs = options.timeoutMs ?? EXCHANGE_TIMEOUT_MS;
    liveStdio.add(child);
    this.#exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdout?.on('data', (chunk: Buffer) => {
      this.#pending += chunk.toString();
      const parts = this.#pending.split('\n');
      this.#pending = parts.pop() ?? '';
      for (const line of parts) if (line.trim() !== '') this.lines.push({ direction: 'gateway->host', line });
      for (const wake of [...this.#waiters]) wake();
    });
    child.stderr?.on('data', (chunk: Buffer) => (this.#stderr += chunk.toString()));
    // A write after the child died (EPIPE) or a failed spawn shows in the transcript instead of crashing the runner.
    child.stdin?.on('error', (error) => (this.#stderr += `[stdin: ${error.message}]\n`));
    child.on('error', (error) => (this.#stderr += `[spawn: ${error.message}]\n`));
    void this.#exited.then(() => {
      for (const wake of [...this.#waiters]) wake();
    });
  }

  /** Spawns `switchboard stdio --config FILE` (its own process group, stopped by `close()`). */
  static start(configPath: string, options: ModernHostOptions = {}): ModernStdioHost {
    return ModernStdioHost.spawn([SWITCHBOARD_BIN, 'stdio', '--config', configPath], options);
  }

  /** Spawns `node ARGS` as the server (e.g. the `--stateless` desk itself, to check this host). */
  static spawn(args: readonly string[], options: ModernHostOptions = {}): ModernStdioHost {
    const child = spawn(process.execPath, [...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...gatewayEnv() },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    return new ModernStdioHost(child, options);
  }

  envelope(): Record<string, unknown> {
    return {
      [ENVELOPE_KEYS.protocolVersion]: MODERN_REVISION,
      [ENVELOPE_KEYS.clientCapabilities]: this.capabilities,
      [ENVELOPE_KEYS.clientInfo]: this.clientInfo,
    };
  }

  /** Writes `method` with the envelope and a fresh id; resolves with the line that answers it (bounded). */
  async request(method: string, params: Record<string, unknown> = {}): Promise<WireMessage> {
    const id = this.#nextId++;
    const message = { jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...((params._meta ?? {}) as object), ...this.envelope() } } };
    const line = JSON.stringify(message);
    this.lines.push({ direction: 'host->gateway', line });
    this.#child.stdin?.write(`${line}\n`);
    const deadline = Date.now() + this.#timeoutMs;
    for (;;) {
      const found = this.#answerTo(id);
      if (found) return found;
      if (this.#child.exitCode !== null || this.#child.signalCode !== null) throw new Error(`${method}: the gateway exited\n${this.transcript()}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${method}: no answer for id ${id} within ${this.#timeoutMs} ms\n${this.transcript()}`);
      await nextWake(this.#waiters, left);
    }
  }

  callTool(name: string, args: Record<string, unknown>, retry: RetryInput = {}): Promise<WireMessage> {
    return this.request('tools/call', { name, arguments: args, ...retryFields(retry) });
  }

  /** Writes one line as is (anything, JSON or not); its answer, if any, shows in `lines`. */
  writeLine(line: string): void {
    this.lines.push({ direction: 'host->gateway', line });
    this.#child.stdin?.write(`${line}\n`);
  }

  #answerTo(id: number): WireMessage | undefined {
    for (const entry of this.lines) {
      if (entry.direction !== 'gateway->host') continue;
      let parsed: WireMessage;
      try {
        parsed = JSON.parse(entry.line) as WireMessage;
      } catch {
        continue;
      }
      if (parsed.id === id && parsed.method === undefined) return parsed;
    }
    return undefined;
  }

  /** Lines on stdout that are not JSON-RPC messages (must stay empty). */
  strayLines(): string[] {
    return this.lines
      .filter((entry) => entry.direction === 'gateway->host')
      .map((entry) => entry.line)
      .filter((line) => {
        try {
          return (JSON.parse(line) as WireMessage).jsonrpc !== '2.0';
        } catch {
          return true;
        }
      });
  }

  transcript(): string {
    const lines = this.lines.map((entry) => `${entry.direction === 'host->gateway' ? '>>' : '<<'} ${entry.line}`).join('\n');
    return `${lines}\n--- gateway stderr ---\n${this.#stderr}`;
  }

  /** Closes stdin, then stops the process group (TERM, KILL after 3 s); bounded, safe to call twice. */
  close(): Promise<void> {
    this.#stopping ??= (async () => {
      this.#child.stdin?.end();
      const gone = await Promise.race([this.#exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 1_000))]);
      if (!gone) await stopChild(this.#child, this.#exited);
      else {
        try {
          if (this.#child.pid !== undefined) process.kill(-this.#child.pid, 'SIGKILL');
        } catch {
          // the group (the gateway and the upstreams it spawned) is already gone
        }
      }
      liveStdio.delete(this.#child);
    })();
    return this.#stopping;
  }
}

/**
 * A `fetch` that records every exchange in `into` (for SDK transports): the response is handed to the caller
 * untouched while a clone is read in the background, bounded, so a stream the gateway never ends cannot hang a test.
 */
export function recordingFetch(into: HttpExchange[], timeoutMs = EXCHANGE_TIMEOUT_MS): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = init?.body === undefined || init.body === null ? '' : typeof init.body === 'string' ? init.body : '[non-text body]';
    const response = await fetch(request);
    const headers = headersOf(response.headers);
    const entry = { request: { method: request.method, headers: headersOf(request.headers), body }, status: response.status, headers, body: '', ended: false, messages: [] as WireMessage[] };
    into.push(entry);
    const copy = response.clone();
    void readBounded(copy, timeoutMs).then(({ body: text, ended }) => {
      entry.body = text;
      entry.ended = ended;
      entry.messages = parseBody(headers['content-type'] ?? '', text);
    });
    return response;
  };
}
