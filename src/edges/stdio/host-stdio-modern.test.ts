/**
 * @module 2026-07-28 lines over the stdio edge: served through `serveModern` (not the session) and answered on one line;
 * a malformed envelope gets the error line; `notifications/cancelled` with a modern request's id cancels that exchange.
 */

import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';

import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../../protocol/jsonrpc.js';
import type { RequestEnvelope } from '../../protocol/request-envelope.js';
import { eventually } from '../../core/testing/deadlines.js';
import type { StdioHostChannel, StdioModernExchange, StdioSessionOpener } from './host-stdio.js';
import { serveStdio } from './host-stdio.js';

interface ModernEntry {
  request: JsonRpcRequest;
  context: { principal: string; envelope: RequestEnvelope; transport: 'stdio' };
  sink: { notify(message: JsonRpcNotification): void; respond(message: JsonRpcResponse): void };
  cancelled: string[];
}

/**
 * A stub gateway: the session records what it receives and answers nothing; serveModern answers tools/call `echo`
 * at once (after one progress notification) and holds everything else until the test answers it.
 */
class StubGateway implements StdioSessionOpener {
  readonly sessionReceived: JsonRpcMessage[] = [];
  readonly modern: ModernEntry[] = [];
  channel: StdioHostChannel | undefined;

  openSession(channel: StdioHostChannel) {
    this.channel = channel;
    return {
      receive: (message: JsonRpcMessage) => {
        this.sessionReceived.push(message);
        return { ok: true as const };
      },
      close: async () => undefined,
    };
  }

  serveModern(request: JsonRpcRequest, context: ModernEntry['context'], sink: ModernEntry['sink']): StdioModernExchange {
    const entry: ModernEntry = { request, context, sink, cancelled: [] };
    this.modern.push(entry);
    if (request.method === 'tools/call' && request.params?.name === 'echo') {
      sink.notify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } });
      sink.respond({ jsonrpc: '2.0', id: request.id, result: { content: [{ type: 'text', text: 'echoed' }], resultType: 'complete' } });
    }
    return { cancel: (reason) => void entry.cancelled.push(reason) };
  }
}

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'stdio-modern', version: '1' },
};

function modernCall(id: number | string, name: string, meta: Record<string, unknown> = ENVELOPE): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {}, _meta: meta } };
}

function setup() {
  const gateway = new StubGateway();
  const input = new PassThrough();
  const output = new PassThrough();
  const edge = serveStdio(gateway, { input, output, logger: { log: () => undefined }, drainTimeoutMs: 0 });
  let pending = '';
  const raw: string[] = [];
  const lines: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  output.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    for (let i = pending.indexOf('\n'); i !== -1; i = pending.indexOf('\n')) {
      raw.push(pending.slice(0, i));
      lines.push(JSON.parse(pending.slice(0, i)) as Record<string, unknown>);
      pending = pending.slice(i + 1);
    }
    waiters.splice(0).forEach((wake) => wake());
  });
  async function readLines(count: number): Promise<Record<string, unknown>[]> {
    const deadline = Date.now() + 3000;
    while (lines.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${count} line(s); got ${JSON.stringify(lines)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
    return lines.slice(0, count);
  }
  const send = (value: unknown) => input.write(`${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
  return { gateway, input, output, edge, send, readLines, lines, raw };
}

/** Sends two modern calls the stub holds (ids 5 and 6) and cancels 5; resolves with the gateway's entries once it heard the cancellation. */
async function holdTwoAndCancelFive(gateway: StubGateway, send: (value: unknown) => void): Promise<ModernEntry[]> {
  send(modernCall(5, 'hold'));
  send(modernCall(6, 'hold'));
  await eventually(() => gateway.modern.length === 2, 'both requests served');
  send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5, reason: 'user pressed stop' } });
  await eventually(() => (gateway.modern[0]?.cancelled.length ?? 0) > 0, 'the cancellation');
  return gateway.modern;
}

describe('serveStdio with 2026-07-28 lines', () => {
  it('serves a modern line through serveModern (not the session) and answers it on one line', async () => {
    const { gateway, send, readLines, raw, edge } = setup();
    send(modernCall(1, 'echo'));
    const [progress, answer] = await readLines(2);
    assert.deepEqual(progress, { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } });
    assert.deepEqual(answer, { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'echoed' }], resultType: 'complete' } });
    assert.equal(raw.length, 2, 'one line each');
    assert.equal(gateway.sessionReceived.length, 0, 'the session never saw it');
    assert.equal(gateway.modern.length, 1);
    const [entry] = gateway.modern;
    assert.ok(entry);
    assert.equal(entry.context.transport, 'stdio');
    assert.equal(typeof entry.context.principal, 'string');
    assert.deepEqual(entry.context.envelope, {
      protocolVersion: '2026-07-28',
      clientCapabilities: { elicitation: { form: {} } },
      clientInfo: { name: 'stdio-modern', version: '1' },
    });
    await edge.close();
  });

  it('a malformed envelope gets the error line and is served by nobody', async () => {
    const { gateway, send, readLines, edge } = setup();
    const { 'io.modelcontextprotocol/clientCapabilities': _caps, ...withoutCapabilities } = ENVELOPE;
    send(modernCall('bad', 'echo', withoutCapabilities));
    const [line] = await readLines(1);
    assert.equal(line?.id, 'bad');
    const error = line?.error as { code: number; data?: { field?: string } } | undefined;
    assert.equal(error?.code, -32602);
    assert.equal(error?.data?.field, '_meta.io.modelcontextprotocol/clientCapabilities');
    send(modernCall('future', 'echo', { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }));
    const [, future] = await readLines(2);
    assert.equal(future?.id, 'future');
    assert.equal((future?.error as { code: number }).code, -32022);
    assert.equal(gateway.modern.length, 0);
    assert.equal(gateway.sessionReceived.length, 0);
    await edge.close();
  });

  it('notifications/cancelled with a modern request\'s id cancels that exchange and nothing else', async () => {
    const { gateway, send, readLines, lines, edge } = setup();
    const [five, six] = await holdTwoAndCancelFive(gateway, send);
    assert.ok(five && six);
    assert.deepEqual(five.cancelled, ['user pressed stop']);
    assert.deepEqual(six.cancelled, [], 'the other request is untouched');
    assert.equal(gateway.sessionReceived.length, 0, 'the cancellation was not handed to the session');
    six.sink.respond({ jsonrpc: '2.0', id: 6, result: { content: [{ type: 'text', text: 'six' }], resultType: 'complete' } });
    await readLines(1);
    assert.deepEqual(lines.map((l) => l.id), [6], 'the other request is still answered');
    await edge.close();
  });

  it('a cancelled modern request gets no answer line, even when the gateway answers it late', async () => {
    const { gateway, send, readLines, lines, edge } = setup();
    const [five, six] = await holdTwoAndCancelFive(gateway, send);
    assert.ok(five && six);
    five.sink.respond({ jsonrpc: '2.0', id: 5, result: { content: [], resultType: 'complete' } });
    six.sink.respond({ jsonrpc: '2.0', id: 6, result: { content: [{ type: 'text', text: 'six' }], resultType: 'complete' } });
    await readLines(1);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(lines.map((l) => l.id), [6]);
    await edge.close();
  });

  it('the end of input cancels modern requests still in flight', async () => {
    const { gateway, send, input, edge } = setup();
    send(modernCall(9, 'hold'));
    await eventually(() => gateway.modern.length === 1, 'the request served');
    input.end();
    await edge.done;
    assert.equal(gateway.modern[0]?.cancelled.length, 1);
  });
});
