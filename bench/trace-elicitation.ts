/**
 * @module Counts what one elicitation round trip runs in src/ (functions called, calls, files): a 2025-06-18 host,
 * a per-session upstream that asks a two-field form, the host's answer. The measure of issue 12's "half the calls".
 * Run: `node --import tsx bench/trace-elicitation.ts` (prints JSON; `--files` lists the files with their call counts, `--functions` the functions).
 */

import { countCalls, printBreakdown, startCoverage } from './coverage-count.js';

import { QuestionDesk } from '../src/questions/desk.js';
import { createGateway } from '../src/app/gateway.js';
import { silentLogger } from '../src/core/log.js';
import { fakeUpstreamFactory } from '../src/upstream/testing/fake-upstream.js';
import { config, connectHost, spec } from '../src/app/testing/gateway-doubles.js';
import type { JsonRpcRequest } from '../src/protocol/jsonrpc.js';
import { MemoryQuestionStore } from '../src/store/memory/memory-question-store.js';

const FORM = { type: 'object', properties: { confirm: { type: 'boolean' }, ticket: { type: 'string' } }, required: ['confirm', 'ticket'] };

// Coverage is on before the warm-up, so every function has its call counter (see coverage-count.ts).
const coverage = await startCoverage();

const up = fakeUpstreamFactory({
  restart: async (_call, server) => {
    const answer = await server.ask('elicitation/create', { message: 'Restart?', requestedSchema: FORM });
    return { content: [{ type: 'text', text: JSON.stringify('result' in answer ? answer.result : answer) }] };
  },
});
const desk = new QuestionDesk({ store: new MemoryQuestionStore(), logger: silentLogger, operatorAvailable: true });
const gateway = createGateway(config([spec('desk')]), { logger: silentLogger, openTransport: () => up.open(), questions: { desk } });
await gateway.ready;

/** One call that elicits, answered by the host; the host session and its upstream session are already open. */
async function roundTrip(host: Awaited<ReturnType<typeof connectHost>>, asked_?: () => Promise<void>): Promise<void> {
  const before = host.sent.length;
  const call = host.request('tools/call', { name: 'restart', arguments: {} });
  const asked = await host.waitFor((s) => host.sent.indexOf(s) >= before && 'method' in s.message && s.message.method === 'elicitation/create');
  await asked_?.();
  host.session.receive({ jsonrpc: '2.0', id: (asked.message as JsonRpcRequest).id, result: { action: 'accept', content: { confirm: true, ticket: 'CHG-1' } } });
  await call;
}

const host = await connectHost(gateway, { elicitation: {} }, '2025-06-18');
await roundTrip(host); // warm-up: the upstream session opens, modules load, caches fill

await coverage.take(); // resets the counters
// Phase 1: the call goes out and the question reaches the host; phase 2: the answer goes up and the result comes back.
let asking: Awaited<ReturnType<typeof coverage.take>> = [];
await roundTrip(host, async () => {
  asking = await coverage.take();
});
const answering = await coverage.take();
await coverage.stop();

const counted = countCalls([asking, answering]);
const { calls, functions } = counted;
const phases = counted.parts.map(({ calls: c, files: f }) => ({ calls: c, files: f }));
const report = { path: '2025-06-18 host, per-session upstream, two-field form, host answers', calls, functions, files: counted.files.size, phases };
console.log(JSON.stringify(report));
printBreakdown(counted, process.argv);
await gateway.close();
