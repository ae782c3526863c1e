/**
 * @module e2e/fuzz.test: issue 11's fuzz test. A seeded run (FUZZ_SEED replays one) sends malformed JSON, nesting past
 * `http.maxJsonDepth`, wrong types for the fields of initialize, tools/call and answers, colliding ids and huge batches to
 * every edge of a real `switchboard serve` (POST /mcp in 2025 sessions and as 2026-07-28, `/sse` + `/messages`, the
 * operator API) and of a `switchboard stdio` child, while a well-behaved session keeps calling. It asserts the right
 * error code per case, no 5xx, no process exit, and that the well-behaved session never fails.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';

import { stopChild } from './harness/child.js';
import { type ConfigFile, gatewayEnv, type RunningGateway, startGateway, writeConfigFile } from './harness/gateway.js';
import { malformedText, nestedText, tooDeep, withDeepValue, wrongTypeFor } from './harness/fuzz-values.js';
import { ENVELOPE_KEYS, exchange, type HttpExchange, MODERN_REVISION, modernHeaders } from './harness/modern-host.js';
import { REPO_ROOT, SWITCHBOARD_BIN } from './harness/paths.js';
import { Prng } from './harness/prng.js';
import { ACCEPT_BOTH, RawHost } from './harness/raw-host.js';
import type { WireMessage } from './harness/sse-reader.js';
import { incidentDeskStdio } from './harness/upstreams.js';
import { nextWake } from './harness/wait.js';

const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed11);
const HTTP_CASES = 320;
const STDIO_CASES = 80;
const ANSWER_CASES = 12;
const CONCURRENCY = 4;
const TOKEN = 'fuzz-operator-token-8Yq2pLmW';
const DESK_TOOLS = ['restart_service', 'summarize_incident'];

/** What a case must get: an HTTP status, and the JSON-RPC error code (or operator error code) of its answer. */
interface Expected {
  status: number;
  rpcCode?: number;
  apiCode?: string;
  /** Every JSON-RPC answer in the body must carry this id. */
  id?: number | string;
  /** How many answers the body must hold (a batch). */
  answers?: number;
}

interface HttpCase {
  label: string;
  url: string;
  method?: string;
  headers: Record<string, string>;
  body?: string;
  expect: Expected | Expected[];
}

const json = (value: unknown): string => JSON.stringify(value);
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } };
const POST = { 'content-type': 'application/json', accept: ACCEPT_BOTH };

function outcomeProblem(kase: HttpCase, ex: HttpExchange): string | undefined {
  if (ex.status >= 500) return `HTTP ${ex.status}`;
  const options = Array.isArray(kase.expect) ? kase.expect : [kase.expect];
  const problems = options.map((expect) => expectedProblem(expect, ex));
  return problems.includes(undefined) ? undefined : problems.join(' | or | ');
}

function expectedProblem(expect: Expected, ex: HttpExchange): string | undefined {
  if (ex.status !== expect.status) return `HTTP ${ex.status}, wanted ${expect.status}`;
  if (expect.apiCode !== undefined) {
    const code = (() => {
      try {
        return (JSON.parse(ex.body) as { error?: { code?: string } }).error?.code;
      } catch {
        return undefined;
      }
    })();
    if (code !== expect.apiCode) return `operator code ${String(code)}, wanted ${expect.apiCode}`;
  }
  const answers = ex.messages.filter((message) => message.method === undefined);
  if (expect.answers !== undefined && answers.length !== expect.answers) return `${answers.length} answers, wanted ${expect.answers}`;
  if (expect.rpcCode !== undefined) {
    const first = answers[0];
    if (first?.error?.code !== expect.rpcCode) return `answer ${json(first)}, wanted code ${expect.rpcCode}`;
  }
  if (expect.id !== undefined && answers.some((answer) => answer.id !== expect.id)) return `answer ids ${json(answers.map((a) => a.id))}, wanted ${json(expect.id)}`;
  return undefined;
}

/** A legacy `/sse` session: its POST endpoint, its stream read in the background (answers arrive there). */
async function openLegacy(base: string): Promise<{ postUrl: string; close(): void }> {
  const abort = new AbortController();
  const response = await fetch(new URL('/sse', base), { headers: { accept: 'text/event-stream' }, signal: abort.signal });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!/event: endpoint\ndata: (\S+)\n/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the /sse stream ended before its endpoint event: ${text}`);
    text += decoder.decode(value, { stream: true });
  }
  const path = /event: endpoint\ndata: (\S+)\n/.exec(text)?.[1] as string;
  void (async () => {
    for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return;
  })();
  return { postUrl: new URL(path, base).toString(), close: () => abort.abort() };
}

/** `switchboard stdio` as a raw line peer: write any line, find answers by id or by order (id null). */
class StdioPeer {
  readonly answers: WireMessage[] = [];
  readonly #child: ChildProcess;
  readonly exited: Promise<unknown>;
  #pending = '';
  #stderr = '';
  #waiters = new Set<() => void>();

  constructor(configPath: string) {
    this.#child = spawn(process.execPath, [SWITCHBOARD_BIN, 'stdio', '--config', configPath], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...gatewayEnv() },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    this.exited = new Promise((resolve) => this.#child.once('exit', resolve));
    this.#child.stdout?.on('data', (chunk: Buffer) => {
      this.#pending += chunk.toString();
      const parts = this.#pending.split('\n');
      this.#pending = parts.pop() ?? '';
      for (const line of parts) if (line.trim() !== '') this.answers.push(JSON.parse(line) as WireMessage);
      for (const wake of [...this.#waiters]) wake();
    });
    this.#child.stderr?.on('data', (chunk: Buffer) => (this.#stderr += chunk.toString()));
    this.#child.stdin?.on('error', (error) => (this.#stderr += `[stdin: ${error.message}]\n`));
  }

  get alive(): boolean {
    return this.#child.exitCode === null && this.#child.signalCode === null;
  }

  get stderr(): string {
    return this.#stderr;
  }

  write(line: string): void {
    this.#child.stdin?.write(`${line}\n`);
  }

  /** Waits (bounded) until `found` finds something among the answers. */
  async until<T>(found: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = found();
      if (value !== undefined) return value;
      if (!this.alive) throw new Error(`stdio: the gateway exited while waiting for ${what}\n${this.#stderr}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`stdio: no ${what} within ${timeoutMs} ms`);
      await nextWake(this.#waiters, left);
    }
  }

  async close(): Promise<void> {
    this.#child.stdin?.end();
    await stopChild(this.#child, this.exited, 2_000);
  }
}

describe('fuzz: hostile input on every edge while a well-behaved session keeps calling', { timeout: 180_000 }, () => {
  let gateway: RunningGateway;
  let stdioConfig: ConfigFile;
  let stdio: StdioPeer;

  before(async () => {
    gateway = await startGateway({ upstreams: { desk: incidentDeskStdio() }, console: { token: TOKEN } });
    stdioConfig = await writeConfigFile({ upstreams: { desk: incidentDeskStdio() } });
    stdio = new StdioPeer(stdioConfig.path);
  });
  after(async () => {
    await stdio?.close();
    await stdioConfig?.remove();
    await gateway?.stop();
  });

  test(`seed ${SEED}: every case gets its error code, nothing 5xx, nobody exits, the well-behaved session never fails`, async () => {
    const prng = new Prng(SEED);
    const base = new URL('/', gateway.url).toString();
    const failures: string[] = [];

    // The well-behaved session: it lists and completes through the upstream the whole time.
    const good = await RawHost.connect(gateway.url);
    let goodCalls = 0;
    const goodFailures: string[] = [];
    let stop = false;
    const wellBehaved = (async () => {
      for (let id = 1; !stop; id += 1) {
        try {
          const list = await good.call(id, 'tools/list');
          const names = ((list.result?.tools ?? []) as { name: string }[]).map((tool) => tool.name).sort();
          if (json(names) !== json(DESK_TOOLS)) goodFailures.push(`tools/list #${id}: ${json(list)}`);
          goodCalls += 1;
        } catch (error) {
          goodFailures.push(`tools/list #${id}: ${String(error)}`);
        }
      }
    })();

    // The fuzzed sessions.
    const victim = await RawHost.connect(gateway.url);
    let victimIds = 0;
    const collider = await RawHost.connect(gateway.url);
    const batcher = await RawHost.connect(gateway.url, { protocolVersion: '2025-03-26' });
    const legacy = await openLegacy(base);
    const legacyInit = await exchange(legacy.postUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: json(INIT) });
    assert.equal(legacyInit.status, 202, legacyInit.body);
    const envelope = {
      [ENVELOPE_KEYS.protocolVersion]: MODERN_REVISION,
      [ENVELOPE_KEYS.clientCapabilities]: {},
      [ENVELOPE_KEYS.clientInfo]: { name: 'fuzz-modern', version: '1' },
    };
    const apiUrl = (path: string): string => new URL(path, base).toString();
    const api = { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` };

    const generators: (() => HttpCase)[] = [
      // POST /mcp without a session: initialize, every field.
      () => ({ label: 'initialize malformed', url: gateway.url, headers: POST, body: malformedText(INIT, prng), expect: { status: 400, rpcCode: -32700 } }),
      () => {
        const path = prng.pick(['params.clientInfo.extra', 'params.capabilities.experimental', 'params.capabilities.sampling', 'params._meta.x', 'params.clientInfo.icons']);
        return { label: `initialize deep ${path}`, url: gateway.url, headers: POST, body: withDeepValue(INIT, path, tooDeep(prng), prng), expect: { status: 400, rpcCode: -32600 } };
      },
      () => {
        const message = structuredClone(INIT) as Record<string, unknown>;
        const field = prng.pick(['jsonrpc', 'id', 'method', 'params', 'whole']);
        if (field === 'jsonrpc') message.jsonrpc = wrongTypeFor('string', prng);
        if (field === 'id') message.id = prng.pick([{}, [], true, false, { id: 1 }]);
        if (field === 'method') message.method = wrongTypeFor('string', prng);
        if (field === 'params') message.params = prng.pick(['x', 1, [], true, null]);
        const body = field === 'whole' ? json(prng.pick([42, 'initialize', null, true])) : json(message);
        return { label: `initialize ${field} of the wrong type`, url: gateway.url, headers: POST, body, expect: { status: 400, rpcCode: -32600 } };
      },
      () => {
        const message = structuredClone(INIT);
        const params = message.params as Record<string, unknown>;
        const field = prng.pick(['protocolVersion', 'capabilities', 'clientInfo', 'clientInfo.name', 'clientInfo.version']);
        if (field === 'protocolVersion') params.protocolVersion = wrongTypeFor('string', prng);
        if (field === 'capabilities') params.capabilities = prng.pick(['x', 1, [], true, null]);
        if (field === 'clientInfo') params.clientInfo = prng.pick(['x', 1, [], true, null]);
        if (field === 'clientInfo.name') (params.clientInfo as Record<string, unknown>).name = wrongTypeFor('string', prng);
        if (field === 'clientInfo.version') (params.clientInfo as Record<string, unknown>).version = wrongTypeFor('string', prng);
        return { label: `initialize params.${field} of the wrong type`, url: gateway.url, headers: POST, body: json(message), expect: { status: 400, rpcCode: -32602 } };
      },
      // POST /mcp in a 2025-11-25 session: tools/call, answers, batches, colliding ids.
      () => {
        // Ids unique on this session: a reused id in flight is the collision cases' business.
        const id = `v${(victimIds += 1)}`;
        const call = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'summarize_incident', arguments: { id: 'INC-1042' } } };
        const field = prng.pick(['malformed', 'deep', 'name', 'arguments', 'params', 'method']);
        const headers = victim.headers();
        if (field === 'malformed') return { label: 'tools/call malformed', url: gateway.url, headers, body: malformedText(call, prng), expect: { status: 400, rpcCode: -32700 } };
        if (field === 'deep') return { label: 'tools/call deep arguments', url: gateway.url, headers, body: withDeepValue(call, 'params.arguments.id', tooDeep(prng), prng), expect: { status: 400, rpcCode: -32600 } };
        if (field === 'params') return { label: 'tools/call params of the wrong type', url: gateway.url, headers, body: json({ ...call, params: prng.pick(['x', 1, [], true]) }), expect: { status: 400, rpcCode: -32600 } };
        if (field === 'method') return { label: 'an unknown method', url: gateway.url, headers, body: json({ ...call, method: `fuzz/${prng.int(0, 9)}` }), expect: { status: 200, rpcCode: -32601, id } };
        const params = { ...call.params, [field]: field === 'name' ? wrongTypeFor('string', prng) : prng.pick(['x', 1, [], true, null]) };
        return { label: `tools/call ${field} of the wrong type`, url: gateway.url, headers, body: json({ ...call, params }), expect: { status: 200, rpcCode: -32602, id } };
      },
      () => {
        const kind = prng.pick(['unknown id', 'result of the wrong type', 'error of the wrong type']);
        const answer: Record<string, unknown> = { jsonrpc: '2.0', id: prng.pick([`sb-${prng.int(1, 999)}`, prng.int(1, 999)]) };
        if (kind === 'unknown id') answer.result = { action: 'accept', content: {} };
        if (kind === 'result of the wrong type') answer.result = prng.pick(['x', 1, [], true]);
        if (kind === 'error of the wrong type') answer.error = prng.pick(['x', 1, [], { code: 'x' }]);
        return { label: `an answer: ${kind}`, url: gateway.url, headers: victim.headers(), body: json(answer), expect: { status: 400, rpcCode: -32600 } };
      },
      () => ({ label: 'a batch on a 2025-11-25 session', url: gateway.url, headers: victim.headers(), body: json([{ jsonrpc: '2.0', id: 1, method: 'ping' }]), expect: { status: 400, rpcCode: -32600 } }),
      // POST /mcp in a 2025-03-26 session: huge batches.
      () => {
        const size = prng.pick([prng.int(2, 50), prng.int(200, 2_000)]);
        const batch = Array.from({ length: size }, (_, i) => ({ jsonrpc: '2.0', id: `b${i}`, method: 'ping' }));
        const kind = prng.pick(['fine', 'one invalid item', 'empty']);
        if (kind === 'fine') return { label: `a batch of ${size} pings`, url: gateway.url, headers: batcher.headers(), body: json(batch), expect: { status: 200, answers: size } };
        if (kind === 'empty') return { label: 'an empty batch', url: gateway.url, headers: batcher.headers(), body: '[]', expect: { status: 400, rpcCode: -32600 } };
        batch[prng.int(0, size - 1)] = prng.pick([{ jsonrpc: '1.0', id: 'x', method: 'ping' }, 7, { id: 'y' }]) as never;
        return { label: `a batch of ${size} with one invalid item`, url: gateway.url, headers: batcher.headers(), body: json(batch), expect: { status: 400, rpcCode: -32600 } };
      },
      // 2026-07-28 POSTs: the envelope in _meta, the Mcp-* headers.
      () => {
        const id = prng.int(1, 50);
        const message = { jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: { ...envelope } } };
        const headers = modernHeaders(message);
        const field = prng.pick(['malformed', 'deep', 'protocolVersion', 'clientCapabilities', 'clientInfo', 'Mcp-Method', 'fine']);
        if (field === 'fine') return { label: '2026-07-28 tools/list', url: gateway.url, headers, body: json(message), expect: { status: 200, id } };
        if (field === 'malformed') return { label: '2026-07-28 malformed', url: gateway.url, headers, body: malformedText(message, prng), expect: { status: 400, rpcCode: -32700 } };
        if (field === 'deep') return { label: '2026-07-28 deep _meta', url: gateway.url, headers, body: withDeepValue(message, 'params._meta.x', tooDeep(prng), prng), expect: { status: 400, rpcCode: -32600 } };
        if (field === 'Mcp-Method') return { label: '2026-07-28 without Mcp-Method', url: gateway.url, headers: { ...headers, 'mcp-method': 'tools/call' }, body: json(message), expect: { status: 400, rpcCode: -32020, id } };
        const key = ENVELOPE_KEYS[field as keyof typeof ENVELOPE_KEYS];
        const wrong = field === 'protocolVersion' ? prng.pick([1, true, [], {}]) : prng.pick(['x', 1, [], true]);
        const bad = { ...message, params: { _meta: { ...envelope, [key]: wrong } } };
        return { label: `2026-07-28 envelope ${field} of the wrong type`, url: gateway.url, headers, body: json(bad), expect: { status: 400, rpcCode: -32602, id } };
      },
      // The legacy edge: POST /messages?sessionId=…
      () => {
        const headers = { 'content-type': 'application/json' };
        const ping = { jsonrpc: '2.0', id: prng.int(1, 1_000), method: 'ping' };
        const kind = prng.pick(['malformed', 'deep', 'jsonrpc', 'unknown answer', 'fine']);
        if (kind === 'malformed') return { label: '/messages malformed', url: legacy.postUrl, headers, body: malformedText(ping, prng), expect: { status: 400, rpcCode: -32700 } };
        if (kind === 'deep') return { label: '/messages deep', url: legacy.postUrl, headers, body: withDeepValue(ping, 'params.x', tooDeep(prng), prng), expect: { status: 400, rpcCode: -32600 } };
        if (kind === 'jsonrpc') return { label: '/messages jsonrpc of the wrong type', url: legacy.postUrl, headers, body: json({ ...ping, jsonrpc: wrongTypeFor('string', prng) }), expect: { status: 400, rpcCode: -32600 } };
        if (kind === 'unknown answer') return { label: '/messages answer to an unknown id', url: legacy.postUrl, headers, body: json({ jsonrpc: '2.0', id: 'sb-999', result: {} }), expect: { status: 400, rpcCode: -32600 } };
        return { label: '/messages ping', url: legacy.postUrl, headers, body: json(ping), expect: { status: 202 } };
      },
      // The operator API.
      () => {
        const path = apiUrl(`/api/questions/q-${prng.int(1, 99)}/answer`);
        const kind = prng.pick(['malformed', 'deep', 'action', 'content', 'unknown question', 'token', 'query']);
        const decline = { action: 'decline' };
        if (kind === 'malformed') return { label: 'operator answer malformed', url: path, headers: api, body: malformedText({ action: 'accept', content: { a: 1 } }, prng), expect: { status: 400, apiCode: 'INVALID_JSON' } };
        if (kind === 'deep') return { label: 'operator answer deep', url: path, headers: api, body: withDeepValue({ action: 'accept' }, 'content.x', tooDeep(prng), prng), expect: { status: 400, apiCode: 'INVALID_BODY' } };
        if (kind === 'action') return { label: 'operator answer action of the wrong type', url: path, headers: api, body: json({ action: wrongTypeFor('string', prng) }), expect: { status: 400, apiCode: 'INVALID_BODY' } };
        if (kind === 'content') return { label: 'operator answer content of the wrong type', url: path, headers: api, body: json({ action: 'accept', content: prng.pick(['x', 1, [], true]) }), expect: { status: 400, apiCode: 'INVALID_BODY' } };
        if (kind === 'token') return { label: 'operator answer with a wrong token', url: path, headers: { ...api, authorization: 'Bearer nope' }, body: json(decline), expect: { status: 401, apiCode: 'UNAUTHORIZED' } };
        if (kind === 'query') return { label: 'operator list with a bad query', url: apiUrl(`/api/questions?state=${prng.pick(['x', '', 'open,,'])}`), method: 'GET', headers: api, expect: { status: 400, apiCode: 'INVALID_QUERY' } };
        return { label: 'operator answer to an unknown question', url: path, headers: api, body: json(decline), expect: { status: 404, apiCode: 'QUESTION_NOT_FOUND' } };
      },
    ];

    const cases = Array.from({ length: HTTP_CASES }, () => prng.pick(generators)());
    // Colliding ids: the ids the well-behaved session uses, on another session (no effect on it), and one id
    // twice at once on one session: the second, while the first is in flight, is refused (400 -32600); each is answered.
    for (let i = 0; i < 10; i += 1) {
      const id = prng.int(1, 20);
      const body = json({ jsonrpc: '2.0', id, method: 'tools/list' });
      for (const _ of [0, 1]) cases.push({ label: `colliding id ${id}`, url: gateway.url, headers: collider.headers(), body, expect: [{ status: 200, id, answers: 1 }, { status: 400, id, rpcCode: -32600, answers: 1 }] });
    }

    async function runHttp(): Promise<void> {
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < cases.length) {
            const kase = cases[next++] as HttpCase;
            try {
              const ex = await exchange(kase.url, { method: kase.method ?? 'POST', headers: kase.headers, ...(kase.body === undefined ? {} : { body: kase.body }) });
              const problem = outcomeProblem(kase, ex);
              if (problem) failures.push(`${kase.label}: ${problem}\n  sent: ${(kase.body ?? '').slice(0, 300)}\n  got: ${ex.body.slice(0, 300)}`);
            } catch (error) {
              failures.push(`${kase.label}: ${String(error)}`);
            }
          }
        }),
      );
    }

    async function runStdio(): Promise<void> {
      stdio.write(json({ ...INIT, id: 'init' }));
      await stdio.until(() => stdio.answers.find((a) => a.id === 'init'), 'the initialize answer');
      stdio.write(json({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      let nullAnswers = 0;
      for (let i = 0; i < STDIO_CASES; i += 1) {
        const id = `c${i}`;
        const call = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'summarize_incident', arguments: { id: 'INC-1042' } } };
        const kind = prng.pick(['malformed', 'deep', 'jsonrpc', 'batch', 'name', 'arguments', 'initialize again']);
        const plan: { line: string; code: number; byId: boolean } =
          kind === 'malformed' ? { line: malformedText(call, prng), code: -32700, byId: false }
          : kind === 'deep' ? { line: `{"jsonrpc":"2.0","id":"${id}","method":"ping","params":{"x":${nestedText(tooDeep(prng), prng)}}}`, code: -32600, byId: false }
          : kind === 'jsonrpc' ? { line: json({ ...call, jsonrpc: wrongTypeFor('string', prng) }), code: -32600, byId: true }
          : kind === 'batch' ? { line: json([call]), code: -32600, byId: false }
          : kind === 'initialize again' ? { line: json({ ...INIT, id }), code: -32600, byId: true }
          : { line: json({ ...call, params: { ...call.params, [kind]: kind === 'name' ? wrongTypeFor('string', prng) : prng.pick(['x', 1, [], true, null]) } }), code: -32602, byId: true };
        stdio.write(plan.line);
        const sentinel = `ok${i}`;
        stdio.write(json({ jsonrpc: '2.0', id: sentinel, method: 'tools/list' }));
        try {
          const answer = plan.byId
            ? await stdio.until(() => stdio.answers.find((a) => a.id === id), `the answer to ${kind}`)
            : await stdio.until(() => stdio.answers.filter((a) => a.id === null)[nullAnswers], `the id-less answer to ${kind}`);
          if (!plan.byId) nullAnswers += 1;
          if (answer.error?.code !== plan.code) failures.push(`stdio ${kind}: ${json(answer)}, wanted ${plan.code}\n  sent: ${plan.line.slice(0, 300)}`);
          const list = await stdio.until(() => stdio.answers.find((a) => a.id === sentinel), 'the well-behaved tools/list');
          const names = ((list.result?.tools ?? []) as { name: string }[]).map((tool) => tool.name).sort();
          if (json(names) !== json(DESK_TOOLS)) failures.push(`stdio well-behaved tools/list after ${kind}: ${json(list)}`);
        } catch (error) {
          failures.push(`stdio ${kind}: ${String(error)}`);
          return;
        }
      }
    }

    /**
     * Answers of the wrong type to real questions: restart_service asks its host to approve. The wrong answer is
     * refused with 400 -32602; a valid decline after it is taken (or, once the wrong answer has settled the
     * question, refused as an answer to no open question); either way the call ends with an answer.
     */
    async function runAnswers(): Promise<void> {
      const asked = await RawHost.connect(gateway.url, { capabilities: { elicitation: { form: {} } } });
      try {
        for (let i = 0; i < ANSWER_CASES; i += 1) {
          const call = await asked.callTool(`r${i}`, 'restart_service', { service: 'payments-api' });
          const question = await call.next();
          if (question?.method !== 'elicitation/create') {
            failures.push(`answers: no question for restart_service, got ${json(question)}`);
            return;
          }
          const content = prng.pick([{ confirm: 'yes', ticket: 'CHG-1' }, { confirm: true, ticket: 7 }, { confirm: [], ticket: {} }, 'x', [], 3]);
          const wrong = { jsonrpc: '2.0', id: question.id, result: { action: prng.pick(['accept', 'accept', 5, 'maybe']), content } };
          const refused = await asked.post(wrong);
          const code = refused.json?.error?.code;
          if (refused.status !== 400 || code !== -32602) failures.push(`answers: ${json(wrong)} got HTTP ${refused.status} ${refused.text}, wanted 400 -32602`);
          const decline = await asked.answer(question.id, { action: 'decline' });
          if (decline.status !== 202 && !(decline.status === 400 && decline.json?.error?.code === -32600)) {
            failures.push(`answers: the decline after a wrong answer got HTTP ${decline.status} ${decline.text}`);
          }
          const rest = await call.rest();
          if (!rest.some((message) => message.id === `r${i}` && (message.result !== undefined || message.error !== undefined))) {
            failures.push(`answers: restart_service r${i} ended without an answer: ${json(rest)}`);
          }
        }
      } finally {
        await asked.close();
      }
    }

    await Promise.all([runHttp(), runStdio(), runAnswers()]);
    stop = true;
    await wellBehaved;
    legacy.close();
    await Promise.all([victim.close(), collider.close(), batcher.close(), good.close()]);

    const seed = `(seed ${SEED}; FUZZ_SEED=${SEED} replays it)`;
    assert.deepEqual(failures.slice(0, 15), [], `${failures.length} of ${cases.length + STDIO_CASES + ANSWER_CASES} cases went wrong ${seed}`);
    assert.deepEqual(goodFailures, [], `the well-behaved session failed ${seed}`);
    assert.ok(goodCalls > 0, 'the well-behaved session made calls during the run');
    assert.equal(gateway.process.hasExited(), false, `switchboard serve exited ${seed}\n${gateway.logs()}`);
    assert.equal(stdio.alive, true, `switchboard stdio exited ${seed}\n${stdio.stderr}`);
    const health = await gateway.health();
    assert.deepEqual(health.body.upstreams.map((u) => [u.name, u.state]), [['desk', 'up']]);
    assert.doesNotMatch(gateway.logs(), /Maximum call stack|RangeError/, 'no stack overflow reached the log');
    for (const [who, log] of [['serve', gateway.logs()], ['stdio', stdio.stderr]] as const) {
      assert.doesNotMatch(log, /^\S+ ERROR /m, `switchboard ${who} logged no error for what hosts sent`);
    }
  });
});
