/** @module `switchboard call` against a scripted MCP server: the handshake, a form asked on stdin, a refused answer re-asked, progress, ping, errors. */

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';

import { within } from '../../core/testing/deadlines.js';
import { runCliInProcess } from '../testing/in-process-cli.js';
import { mcpEndpoint, parseToolArguments } from './call.js';

type Message = Record<string, unknown> & { id?: string | number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown> };

/** What the tools/call stream does: writes messages, may wait for an answer to a question it sent. */
type CallScript = (stream: { send(message: Message): void; answer(id: string): Promise<Message> }, call: Message) => Promise<Record<string, unknown> | { error: { code: number; message: string; data?: unknown } }>;

interface FakeMcp {
  url: string;
  /** Every message POSTed, in order, with the headers that came with it. */
  posts: { message: Message; headers: IncomingMessage['headers'] }[];
  deleted: boolean;
  onCall(script: CallScript): void;
  /** Answers to a question: 400 (with this message, -32602 unless a code is given) when `refuse` says so. */
  refuseAnswer(refuse: (result: Record<string, unknown>) => string | { code: number; message: string } | undefined): void;
  close(): Promise<void>;
}

async function startFakeMcp(): Promise<FakeMcp> {
  let script: CallScript = async () => ({ content: [] });
  let refuse: (result: Record<string, unknown>) => string | { code: number; message: string } | undefined = () => undefined;
  const waiting = new Map<string, (message: Message) => void>();
  const fake: Omit<FakeMcp, 'url' | 'close'> = {
    posts: [],
    deleted: false,
    onCall: (next) => (script = next),
    refuseAnswer: (next) => (refuse = next),
  };
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      if (req.method === 'DELETE') {
        fake.deleted = true;
        return json(res, 200, undefined);
      }
      const message = JSON.parse(text) as Message;
      fake.posts.push({ message, headers: req.headers });
      if (message.method === 'initialize') {
        return json(res, 200, { jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'fake', version: '1' } } }, { 'mcp-session-id': 'sess-1' });
      }
      if (message.method === undefined) {
        const why = message.result === undefined ? undefined : refuse(message.result);
        if (typeof why === 'string') return json(res, 400, { jsonrpc: '2.0', id: message.id, error: { code: -32602, message: `Invalid params: ${why}` } });
        if (why !== undefined) return json(res, 400, { jsonrpc: '2.0', id: message.id, error: why });
        json(res, 202, undefined);
        waiting.get(String(message.id))?.(message);
        return;
      }
      if (message.id === undefined) return json(res, 202, undefined);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': stream open\n\n');
      const stream = {
        send: (m: Message) => res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', ...m })}\n\n`),
        answer: (id: string) => new Promise<Message>((resolve) => waiting.set(id, resolve)),
      };
      void script(stream, message).then((outcome) => {
        res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, ...('error' in outcome ? outcome : { result: outcome }) })}\n\n`);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

const FORM = {
  message: 'Restart payments-api? This drops in-flight requests.',
  requestedSchema: {
    type: 'object',
    properties: { confirm: { type: 'boolean', description: 'Tick to approve the restart' }, ticket: { type: 'string', description: 'Change ticket number' } },
    required: ['confirm', 'ticket'],
  },
  mode: 'form',
};

function run(argv: string[], stdinText: string, env: Record<string, string> = {}) {
  return runCliInProcess(argv, env, { stdinText });
}

/** The restart tool: progress, the approval form, the answer read back into the result. */
const restart: CallScript = async (stream, call) => {
  const token = (call.params?._meta as { progressToken?: string } | undefined)?.progressToken;
  stream.send({ method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 4, message: 'draining' } });
  stream.send({ id: 'sb-1', method: 'elicitation/create', params: FORM });
  const answer = await stream.answer('sb-1');
  const result = answer.result as { action: string; content?: { ticket?: string } };
  if (result.action !== 'accept') return { content: [{ type: 'text', text: `NOT RESTARTED: ${result.action}` }], isError: false };
  return { content: [{ type: 'text', text: `RESTARTED ${String((call.params?.arguments as { service?: string }).service)} under ${result.content?.ticket}` }], isError: false };
};

describe('switchboard call', () => {
  let mcp: FakeMcp;
  before(async () => {
    mcp = await startFakeMcp();
  });
  after(() => mcp.close());
  beforeEach(() => {
    mcp.posts.length = 0;
    mcp.refuseAnswer(() => undefined);
  });

  it('initializes at 2025-11-25 declaring form elicitation, asks the form from stdin, prints the result on stdout', async () => {
    mcp.onCall(restart);
    const result = await run(['call', 'restart_service', '{"service":"payments-api"}', '--url', mcp.url], 'y\nCHG-2291\naccept\n');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'RESTARTED payments-api under CHG-2291\n');
    const [init, initialized, call, answer] = mcp.posts;
    assert.deepEqual(init?.message.params, { protocolVersion: '2025-11-25', capabilities: { elicitation: { form: {} } }, clientInfo: { name: 'switchboard-call', version: '1.0.0' } });
    assert.equal(initialized?.message.method, 'notifications/initialized');
    assert.equal(initialized?.headers['mcp-session-id'], 'sess-1');
    assert.equal(initialized?.headers['mcp-protocol-version'], '2025-11-25');
    assert.deepEqual(call?.message.params, { name: 'restart_service', arguments: { service: 'payments-api' }, _meta: { progressToken: 'switchboard-call' } });
    assert.deepEqual(answer?.message, { jsonrpc: '2.0', id: 'sb-1', result: { action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } } });
    assert.match(result.stderr, /^progress 1\/4 \(25%\): draining\n\nRestart payments-api\? This drops in-flight requests\.\nconfirm \[yes\/no, required\]\n/);
    assert.match(result.stderr, /\[y\/n\] > y\n/);
    assert.match(result.stderr, /Accept, decline or cancel\? \[a\/d\/c\] > accept\n$/);
    assert.ok(mcp.deleted, 'the session is ended with DELETE');
  });

  it('an answer the gateway refuses (HTTP 400) is shown and asked again', async () => {
    mcp.onCall(restart);
    mcp.refuseAnswer((answer) => ((answer.content as { ticket?: string } | undefined)?.ticket === 'bad' ? 'field "ticket": not a ticket' : undefined));
    const result = await run(['call', 'restart_service', '{"service":"payments-api"}', '--url', mcp.url], 'y\nbad\na\ny\nCHG-7\na\n');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'RESTARTED payments-api under CHG-7\n');
    assert.match(result.stderr, / {2}! the answer was refused: HTTP 400: Invalid params: field "ticket": not a ticket: answer again\n/);
  });

  it('an answer refused because its question is gone (HTTP 400, not -32602) is shown and not asked again; the call ends as the server says', async () => {
    mcp.onCall(async (stream) => {
      stream.send({ id: 'sb-1', method: 'elicitation/create', params: FORM });
      while (!mcp.posts.some((post) => post.message.id === 'sb-1' && post.message.method === undefined)) await new Promise((resolve) => setTimeout(resolve, 5));
      return { content: [{ type: 'text', text: 'SETTLED' }], isError: true };
    });
    mcp.refuseAnswer(() => ({ code: -32600, message: 'Invalid Request: Unknown response id "sb-1"' }));
    const running = run(['call', 'restart_service', '{"service":"payments-api"}', '--url', mcp.url], 'y\nCHG-7\na\ny\nCHG-8\na\n');
    assert.equal(await within(running, 10_000), true, 'the call ends');
    const result = await running;
    assert.equal(result.stdout, 'SETTLED\n', result.stderr);
    assert.match(result.stderr, / {2}! the answer was refused: HTTP 400: Invalid Request: Unknown response id "sb-1"\n/);
    assert.doesNotMatch(result.stderr, /answer again/);
    assert.equal(mcp.posts.filter((post) => post.message.id === 'sb-1').length, 1, 'answered once');
  });

  it('declines, cancels at the end of input, and --no-input cancels without asking', async () => {
    mcp.onCall(restart);
    assert.equal((await run(['call', 'restart_service', '{"service":"x"}', '--url', mcp.url], 'y\nCHG-1\nd\n')).stdout, 'NOT RESTARTED: decline\n');
    assert.equal((await run(['call', 'restart_service', '{"service":"x"}', '--url', mcp.url], 'y\n')).stdout, 'NOT RESTARTED: cancel\n');
    const noInput = await run(['call', 'restart_service', '{"service":"x"}', '--url', mcp.url, '--no-input'], 'y\nCHG-1\na\n');
    assert.equal(noInput.stdout, 'NOT RESTARTED: cancel\n');
    assert.match(noInput.stderr, /Restart payments-api\? This drops in-flight requests\.\n\(answered cancel: --no-input\)\n/);
    assert.doesNotMatch(noInput.stderr, /\[y\/n\]/);
  });

  it('answers ping, refuses requests it did not declare, and shows log lines', async () => {
    mcp.onCall(async (stream) => {
      stream.send({ id: 'p-1', method: 'ping' });
      const pong = await stream.answer('p-1');
      stream.send({ id: 's-1', method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } });
      const refused = await stream.answer('s-1');
      stream.send({ method: 'notifications/message', params: { level: 'warning', logger: 'desk', data: 'disk \u001b[31malmost\u001b[0m full' } });
      return { content: [{ type: 'text', text: JSON.stringify({ pong: pong.result, refused: refused.error }) }] };
    });
    const result = await run(['call', 'probe', '--url', mcp.url], '');
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), { pong: {}, refused: { code: -32601, message: 'switchboard call does not answer sampling/createMessage (it declares form elicitation only)' } });
    assert.equal(result.stderr, '[warning] desk: disk \\u001b[31malmost\\u001b[0m full\n');
  });

  it('prints other content summarised and structured content when there is no content; isError exits 1', async () => {
    mcp.onCall(async () => ({ content: [{ type: 'text', text: 'failed:' }, { type: 'image', mimeType: 'image/png', data: 'A'.repeat(4096) }, { type: 'resource_link', name: 'log', uri: 'file:///var/log/x' }], isError: true }));
    const failed = await run(['call', 'x', '--url', mcp.url], '');
    assert.deepEqual(failed, { code: 1, stdout: 'failed:\n[image image/png ~3 KB]\n[resource link log file:///var/log/x]\n', stderr: 'switchboard: x reported an error (isError)\n' });
    mcp.onCall(async () => ({ content: [], structuredContent: { ok: true } }));
    assert.deepEqual(await run(['call', 'x', '--url', mcp.url], ''), { code: 0, stdout: '{\n  "ok": true\n}\n', stderr: '' });
    mcp.onCall(async () => ({ content: [{ type: 'text', text: 'hi' }] }));
    assert.deepEqual(JSON.parse((await run(['call', 'x', '--url', mcp.url, '--json'], '')).stdout), { content: [{ type: 'text', text: 'hi' }] });
  });

  it('a JSON-RPC error names the gateway\'s reason, exit 1', async () => {
    mcp.onCall(async () => ({ error: { code: -32602, message: 'Unknown tool: nope', data: { reason: 'GW_ERR_UNKNOWN_TOOL' } } }));
    assert.deepEqual(await run(['call', 'nope', '--url', mcp.url], ''), { code: 1, stdout: '', stderr: 'switchboard: nope failed: GW_ERR_UNKNOWN_TOOL (-32602): Unknown tool: nope\n' });
  });

  it('an endpoint that refuses initialize: one line with the status, exit 1', async () => {
    const other = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not Found');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    after(() => new Promise<void>((resolve) => other.close(() => resolve())));
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/mcp`;
    assert.deepEqual(await run(['call', 'x', '--url', otherUrl], ''), { code: 1, stdout: '', stderr: `switchboard: ${otherUrl}: initialize was refused: HTTP 404: Not Found\n` });
  });

  it('cannot connect: exit 3', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await run(['call', 'x', '--url', `http://127.0.0.1:${port}/mcp`], '');
    assert.deepEqual(result, { code: 3, stdout: '', stderr: `switchboard: cannot connect to http://127.0.0.1:${port}/mcp: ECONNREFUSED (is \`switchboard serve\` running there?)\n` });
  });
});

describe('call arguments', () => {
  const endpoints: [string | undefined, Record<string, string>, string][] = [
    [undefined, {}, 'http://127.0.0.1:3939/mcp'],
    [undefined, { SWITCHBOARD_URL: 'http://gw.local:8080' }, 'http://gw.local:8080/mcp'],
    ['http://127.0.0.1:4000', { SWITCHBOARD_URL: 'http://gw.local:8080' }, 'http://127.0.0.1:4000/mcp'],
    ['http://127.0.0.1:4000/custom/mcp', {}, 'http://127.0.0.1:4000/custom/mcp'],
  ];
  for (const [flag, env, url] of endpoints) {
    it(`--url ${flag ?? '(none)'} with ${JSON.stringify(env)} → ${url}`, () => assert.equal(mcpEndpoint(flag, env).href, url));
  }

  it('reads JSON-ARGS as an object, {} when absent', () => {
    assert.deepEqual(parseToolArguments(undefined), {});
    assert.deepEqual(parseToolArguments('{"service":"payments-api","n":2}'), { service: 'payments-api', n: 2 });
  });

  const usage: [string[], string][] = [
    [['call'], 'call: missing the tool name (try: switchboard call --help)'],
    [['call', 'x', '{"a":1}', 'extra'], 'call: unexpected argument extra (try: switchboard call --help)'],
    [['call', 'x', '[1]'], 'call: JSON-ARGS must be a JSON object, e.g. \'{"service":"payments-api"}\''],
    [['call', 'x', '{nope'], 'call: JSON-ARGS is not JSON: '],
    [['call', 'x', '--url', 'ws://x'], 'call: --url must be an http:// or https:// URL'],
    [['call', 'x', '--timeout', '3'], 'call: unknown option --timeout (try: switchboard call --help)'],
  ];
  for (const [argv, line] of usage) {
    it(`"${argv.join(' ')}" → exit 2`, async () => {
      const result = await run(argv, '');
      assert.equal(result.code, 2);
      assert.equal(result.stdout, '');
      assert.ok(result.stderr.startsWith(`switchboard: ${line}`), result.stderr);
    });
  }
});
