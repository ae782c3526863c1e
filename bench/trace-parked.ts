/**
 * @module Counts what a 2026-07-28 host's parked call runs in src/ (functions called, calls, files), request by request:
 * the first tools/call, answered with input_required because the legacy upstream asked mid-call, and the retry that
 * carries the answer and gets the result. The measure of issue 12's "no made-up messages, route once, MAC once".
 * Run: `node --import tsx bench/trace-parked.ts` (prints JSON; `--files` lists the files with their call counts).
 */

import { createGateway } from '../src/app/gateway.js';
import { silentLogger } from '../src/core/log.js';
import { fakeUpstreamFactory } from '../src/upstream/testing/fake-upstream.js';
import { config, spec } from '../src/app/testing/gateway-doubles.js';
import type { JsonObject, JsonRpcRequest, JsonRpcResponse } from '../src/protocol/jsonrpc.js';
import { parseRequestEnvelope } from '../src/protocol/request-envelope.js';
import { countCalls, printBreakdown, startCoverage } from './coverage-count.js';

const FORM = { type: 'object', properties: { confirm: { type: 'boolean' }, ticket: { type: 'string' } }, required: ['confirm', 'ticket'] };
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'trace-host', version: '1' },
};

// Coverage is on before the warm-up, so every function has its call counter (see coverage-count.ts).
const coverage = await startCoverage();

const up = fakeUpstreamFactory({
  restart: async (_call, server) => {
    const answer = await server.ask('elicitation/create', { mode: 'form', message: 'Restart?', requestedSchema: FORM });
    return { content: [{ type: 'text', text: JSON.stringify('result' in answer ? answer.result : answer) }] };
  },
});
const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => up.open() });
await gateway.ready;

/** One request of the host, its response awaited. */
function request(id: number, params: JsonObject): Promise<JsonRpcResponse> {
  const message: JsonRpcRequest = { jsonrpc: '2.0', id, method: 'tools/call', params: { ...params, _meta: ENVELOPE } };
  const parsed = parseRequestEnvelope(message.params);
  if (!parsed.ok) throw new Error('the trace request carries no valid envelope');
  // The gateway's round timer does not hold the process open (a server's sockets do): this one does, until the response.
  const alive = setInterval(() => undefined, 1000);
  return new Promise<JsonRpcResponse>((resolve) => {
    gateway.serveModern(message, { principal: 'trace', envelope: parsed.envelope, transport: 'streamable-http' }, { notify: () => undefined, respond: resolve });
  }).finally(() => clearInterval(alive));
}

/** A parked call: the first request gets input_required, the retry carries the answer and gets the result. */
async function parkedCall(between?: () => Promise<void>): Promise<void> {
  const call = { name: 'restart', arguments: {} };
  const first = await request(1, call);
  const result = 'result' in first ? first.result : {};
  const [key] = Object.keys((result.inputRequests ?? {}) as JsonObject);
  if (key === undefined || typeof result.requestState !== 'string') throw new Error(`expected input_required, got ${JSON.stringify(first)}`);
  await between?.();
  const done = await request(2, { ...call, inputResponses: { [key]: { action: 'accept', content: { confirm: true, ticket: 'CHG-1' } } }, requestState: result.requestState });
  if (!('result' in done) || done.result.resultType !== 'complete') throw new Error(`expected the result, got ${JSON.stringify(done)}`);
}

await parkedCall(); // warm-up: the session and its upstream session open, modules load, caches fill

await coverage.take(); // resets the counters
let parking: Awaited<ReturnType<typeof coverage.take>> = [];
await parkedCall(async () => {
  parking = await coverage.take();
});
const resuming = await coverage.take();
await coverage.stop();

const counted = countCalls([parking, resuming]);
console.log(JSON.stringify({ path: '2026-07-28 host, per-session legacy upstream asking mid-call: the parked request, then the retry', requests: counted.parts }));
printBreakdown(counted, process.argv);
await gateway.close();
