/**
 * @module Counts what one elicitation round trip runs in src/ (functions called, calls, files): a 2025-06-18 host,
 * a per-session upstream that asks a two-field form, the host's answer. The measure of issue 12's "half the calls".
 * Run: `node --import tsx bench/trace-elicitation.ts` (prints JSON; `--files` lists the files with their call counts).
 */

import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';

import { QuestionDesk } from '../src/questions/desk.js';
import { createGateway } from '../src/app/gateway.js';
import { silentLogger } from '../src/core/log.js';
import { fakeUpstreamFactory } from '../src/upstream/testing/fake-upstream.js';
import { config, connectHost, spec } from '../src/app/testing/gateway-doubles.js';
import type { JsonRpcRequest } from '../src/protocol/jsonrpc.js';
import { MemoryQuestionStore } from '../src/store/memory/memory-question-store.js';

const SRC = new URL('../src/', import.meta.url).href;
const FORM = { type: 'object', properties: { confirm: { type: 'boolean' }, ticket: { type: 'string' } }, required: ['confirm', 'ticket'] };

// Coverage is on before the warm-up: V8 sets up a function's call counter lazily unless precise coverage is on, and an
// arrow first compiled without one (the callback of an `every`, say) was never counted afterwards (7 calls were missed).
const inspector = new Session();
inspector.connect();
await inspector.post('Profiler.enable');
await inspector.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });

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
async function roundTrip(host: Awaited<ReturnType<typeof connectHost>>): Promise<void> {
  const before = host.sent.length;
  const call = host.request('tools/call', { name: 'restart', arguments: {} });
  const asked = await host.waitFor((s) => host.sent.indexOf(s) >= before && 'method' in s.message && s.message.method === 'elicitation/create');
  host.session.receive({ jsonrpc: '2.0', id: (asked.message as JsonRpcRequest).id, result: { action: 'accept', content: { confirm: true, ticket: 'CHG-1' } } });
  await call;
}

const host = await connectHost(gateway, { elicitation: {} }, '2025-06-18');
await roundTrip(host); // warm-up: the upstream session opens, modules load, caches fill

await inspector.post('Profiler.takePreciseCoverage'); // resets the counters
await roundTrip(host);
const { result } = await inspector.post('Profiler.takePreciseCoverage');
await inspector.post('Profiler.stopPreciseCoverage');
inspector.disconnect();

const files = new Map<string, number>();
let functions = 0;
let calls = 0;
for (const script of result) {
  if (!script.url.startsWith(SRC) || script.url.includes('/testing/')) continue;
  // The first range of each function is its whole body; its count is how often it was called.
  const called = script.functions.filter((fn) => fn.functionName !== '' || fn.ranges[0]?.startOffset !== 0).filter((fn) => (fn.ranges[0]?.count ?? 0) > 0);
  if (called.length === 0) continue;
  const count = called.reduce((sum, fn) => sum + (fn.ranges[0]?.count ?? 0), 0);
  files.set(fileURLToPath(script.url).slice(fileURLToPath(SRC).length), count);
  functions += called.length;
  calls += count;
}
const report = { path: '2025-06-18 host, per-session upstream, two-field form, host answers', calls, functions, files: files.size };
console.log(JSON.stringify(report));
if (process.argv.includes('--files')) for (const [file, count] of [...files].sort((a, b) => b[1] - a[1])) console.log(`${String(count).padStart(5)}  ${file}`);
await gateway.close();
