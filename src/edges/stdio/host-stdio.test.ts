/** @module The stdio downstream edge: newline-delimited JSON-RPC for one host session, errors as lines, end on input close. */

import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';

import { FakeGateway } from '../http/testing/fake-gateway.js';
import { within } from '../../core/testing/deadlines.js';
import { serveStdio } from './host-stdio.js';

function setup(extra: { maxLineLength?: number; drainTimeoutMs?: number; maxJsonDepth?: number } = {}) {
  const gateway = new FakeGateway();
  const input = new PassThrough();
  const output = new PassThrough();
  const logs: string[] = [];
  const edge = serveStdio(gateway, { input, output, logger: { log: (level, message, fields) => void logs.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`) }, ...extra });
  let pending = '';
  const lines: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  output.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    for (let i = pending.indexOf('\n'); i !== -1; i = pending.indexOf('\n')) {
      lines.push(JSON.parse(pending.slice(0, i)) as Record<string, unknown>);
      pending = pending.slice(i + 1);
    }
    waiters.splice(0).forEach((wake) => wake());
  });
  /** Resolves with the first `count` output lines once they have been written. */
  async function readLines(count: number): Promise<Record<string, unknown>[]> {
    while (lines.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    return lines.slice(0, count);
  }
  const send = (value: unknown) => input.write(`${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
  return { gateway, input, output, edge, logs, send, readLines, lines };
}

const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'h', version: '1' } } };

describe('serveStdio', () => {
  it('opens exactly one host session and relays requests and responses line by line', async () => {
    const { gateway, send, readLines } = setup();
    assert.equal(gateway.sessions.length, 1);
    send(initialize);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } });
    const lines = await readLines(3);
    assert.equal((lines[0]?.result as { protocolVersion: string }).protocolVersion, '2025-06-18');
    assert.deepEqual(lines[1], { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'echoing' } }, 'related messages go to stdout too');
    assert.deepEqual(lines[2], { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } });
    assert.equal(gateway.sessions.length, 1);
    assert.deepEqual(gateway.last.received.map((m) => ('method' in m ? m.method : 'response')), ['initialize', 'notifications/initialized', 'tools/call']);
  });

  it('answers a line nested deeper than maxJsonDepth with -32600 naming the limit, and goes on', async () => {
    const { gateway, send, readLines } = setup({ maxJsonDepth: 3 });
    send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: { deep: 1 } } } });
    send(`{"jsonrpc":"2.0","id":2,"method":"ping","params":{"_meta":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`);
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } });
    const [first, second, , third] = await readLines(4);
    assert.equal((first?.error as { code: number; message: string }).code, -32600);
    assert.match((first?.error as { message: string }).message, /deeper than 3 levels/);
    assert.equal((second?.error as { code: number }).code, -32600);
    assert.deepEqual(third, { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'hi' }] } });
    assert.deepEqual(gateway.last.received.map((m) => ('method' in m ? m.method : 'response')), ['tools/call']);
  });

  it('writes unrelated messages and server-to-client requests, and passes the host answer back', async () => {
    const { gateway, send, readLines } = setup();
    gateway.last.push({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'ask' } });
    const [listChanged, question] = await readLines(2);
    assert.deepEqual(listChanged, { jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    assert.equal(question?.method, 'elicitation/create');
    send({ jsonrpc: '2.0', id: question?.id, result: { action: 'decline' } });
    const lines = await readLines(3);
    assert.deepEqual(lines[2], { jsonrpc: '2.0', id: 5, result: { content: [{ type: 'text', text: '{"action":"decline"}' }] } });
  });

  it('issue 11 item 8: an answer the session refuses gets an error line with its id (-32602 naming the field), and its question settles', async () => {
    const { gateway, send, readLines } = setup();
    send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'ask' } });
    const [question] = await readLines(1);
    assert.equal(question?.method, 'elicitation/create');
    send({ jsonrpc: '2.0', id: question?.id, result: { action: 'accept', content: {}, invalid: true } });
    assert.equal(await within(readLines(3), 3000), true, 'the host is told, and the call ends');
    const [, ...rest] = await readLines(3);
    const refusal = rest.find((line) => line.id === question?.id);
    assert.equal((refusal?.error as { code?: number } | undefined)?.code, -32602, JSON.stringify(rest));
    assert.match((refusal?.error as { message?: string } | undefined)?.message ?? '', /field "invalid"/);
    const ended = rest.find((line) => line.id === 5);
    assert.equal((ended?.result as { isError?: boolean } | undefined)?.isError, true, JSON.stringify(rest));
    assert.equal(gateway.last.admitted.length, 1, 'the session settled the question');
    assert.ok(!gateway.last.received.some((m) => !('method' in m) && m.id === question?.id), 'a refused answer is not handed on');
  });

  it('refuses a request that reuses the id of one in flight (-32600) and keeps the older one', async () => {
    const { gateway, send, readLines } = setup();
    send({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'ask' } });
    const [question] = await readLines(1);
    assert.equal(question?.method, 'elicitation/create');
    send({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'echo', arguments: { text: 'second' } } });
    const [, clash] = await readLines(2);
    assert.deepEqual(clash, { jsonrpc: '2.0', id: 9, error: { code: -32600, message: 'Invalid Request: id 9 is already in flight' } });
    assert.equal(gateway.last.received.filter((m) => 'method' in m && m.method === 'tools/call').length, 1, 'the second request never reached the session');
  });

  it('answers malformed JSON with -32700, batches and non-messages with -32600, and keeps going', async () => {
    const { gateway, send, readLines } = setup();
    send('{"jsonrpc": "2.0", "id": 1,');
    send([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
    send({ jsonrpc: '2.0', id: 3, method: 42 });
    send({ jsonrpc: '2.0', id: 4, method: 'ping' });
    const lines = await readLines(4);
    assert.deepEqual(lines[0], { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the line is not valid JSON' } });
    assert.deepEqual(lines[1], { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: batches are not supported' } });
    assert.deepEqual(lines[2], { jsonrpc: '2.0', id: 3, error: { code: -32600, message: 'Invalid Request: method must be a string' } });
    assert.deepEqual(lines[3], { jsonrpc: '2.0', id: 4, result: {} });
    assert.equal(gateway.last.received.length, 1, 'only the valid message reached the gateway');
  });

  it('reassembles lines split across chunks, multi-byte characters included, and tolerates CRLF and blank lines', async () => {
    const { input, readLines } = setup();
    const line = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'héllo ✓' } } })}\r\n\n`);
    const cut = line.indexOf(Buffer.from('✓')) + 1;
    input.write(line.subarray(0, cut));
    input.write(line.subarray(cut));
    const lines = await readLines(2);
    assert.deepEqual(lines[1], { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'héllo ✓' }] } });
  });

  it('answers an over-long line with one -32700 and resumes at the next line', async () => {
    const { send, input, readLines } = setup({ maxLineLength: 64 });
    input.write('x'.repeat(50));
    input.write('y'.repeat(50));
    input.write(`${'z'.repeat(50)}\n`);
    send({ jsonrpc: '2.0', id: 9, method: 'ping' });
    const lines = await readLines(2);
    assert.equal((lines[0]?.error as { code: number }).code, -32700);
    assert.deepEqual(lines[1], { jsonrpc: '2.0', id: 9, result: {} });
  });

  it('ends the host session when the input closes, taking a last unterminated line first', async () => {
    const { gateway, input, edge, readLines } = setup();
    input.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    await edge.done;
    assert.deepEqual(await readLines(1), [{ jsonrpc: '2.0', id: 1, result: {} }]);
    assert.equal(gateway.last.closed, true);
  });

  it('after the input closes, waits for answers to requests in flight before ending the session', async () => {
    const { gateway, input, edge, readLines } = setup();
    input.end(`${JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'hold' } })}\n`);
    await readLines(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(gateway.last.closed, false, 'still waiting for the held call');
    gateway.last.release(4, 'late');
    await edge.done;
    const lines = await readLines(3);
    assert.deepEqual(lines[2], { jsonrpc: '2.0', id: 4, result: { content: [{ type: 'text', text: 'late' }] } });
    assert.equal(gateway.last.closed, true);
  });

  it('stops waiting for answers after drainTimeoutMs', async () => {
    const { gateway, input, edge, logs } = setup({ drainTimeoutMs: 30 });
    input.end(`${JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'hold' } })}\n`);
    await edge.done;
    assert.equal(gateway.last.closed, true);
    assert.ok(logs.some((l) => l.includes('1 request(s) left unanswered')));
  });

  it('stops when the gateway ends the session, and ignores later input', async () => {
    const { gateway, send, edge, lines } = setup();
    gateway.last.closeFromGateway();
    await edge.done;
    send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(gateway.last.received.length, 0);
    assert.equal(lines.length, 0);
  });

  it('logs to the logger, never to the output', async () => {
    const { input, edge, logs, lines } = setup();
    input.end();
    await edge.done;
    assert.ok(logs.some((l) => l.includes('stdio host session ended')));
    assert.equal(lines.length, 0);
  });
});
