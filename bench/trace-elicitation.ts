/**
 * @module Counts what one elicitation round trip runs in src/ (functions called, calls, files): a 2025-06-18 host,
 * a per-session upstream that asks a two-field form, the host's answer. The measure of issue 12's "half the calls".
 * Run: `node --import tsx bench/trace-elicitation.ts` (prints JSON; `--files` lists the files with their call counts, `--functions` the functions).
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

await inspector.post('Profiler.takePreciseCoverage'); // resets the counters
type Coverage = Awaited<ReturnType<typeof takeCoverage>>;
async function takeCoverage() {
  return (await inspector.post('Profiler.takePreciseCoverage')).result; // and resets the counters
}
// Phase 1: the call goes out and the question reaches the host; phase 2: the answer goes up and the result comes back.
let asking: Coverage = [];
await roundTrip(host, async () => {
  asking = await takeCoverage();
});
const answering = await takeCoverage();
await inspector.post('Profiler.stopPreciseCoverage');
inspector.disconnect();

const files = new Map<string, number>();
const perFunction = new Map<string, { name: string; file: string; count: number }>();
let functions = 0;
let calls = 0;
const phases: { calls: number; files: number }[] = [];
for (const result of [asking, answering]) {
  const phase = { calls: 0, files: 0 };
  for (const script of result) {
    if (!script.url.startsWith(SRC) || script.url.includes('/testing/')) continue;
    // The first range of each function is its whole body; its count is how often it was called.
    // `__name` is the helper tsx (esbuild) adds to keep the names of functions declared inside functions: not our code.
    const called = script.functions
      .filter((fn) => fn.functionName !== '__name' && (fn.functionName !== '' || fn.ranges[0]?.startOffset !== 0))
      .filter((fn) => (fn.ranges[0]?.count ?? 0) > 0);
    if (called.length === 0) continue;
    const count = called.reduce((sum, fn) => sum + (fn.ranges[0]?.count ?? 0), 0);
    const file = fileURLToPath(script.url).slice(fileURLToPath(SRC).length);
    files.set(file, (files.get(file) ?? 0) + count);
    phase.calls += count;
    phase.files += 1;
    for (const fn of called) {
      const key = `${file}:${fn.ranges[0]?.startOffset ?? 0}`;
      const known = perFunction.get(key);
      if (known) known.count += fn.ranges[0]?.count ?? 0;
      else {
        functions += 1;
        perFunction.set(key, { name: fn.functionName || '(anonymous)', file, count: fn.ranges[0]?.count ?? 0 });
      }
    }
    calls += count;
  }
  phases.push(phase);
}
const report = { path: '2025-06-18 host, per-session upstream, two-field form, host answers', calls, functions, files: files.size, phases };
console.log(JSON.stringify(report));
if (process.argv.includes('--files')) for (const [file, count] of [...files].sort((a, b) => b[1] - a[1])) console.log(`${String(count).padStart(5)}  ${file}`);
if (process.argv.includes('--functions')) for (const fn of [...perFunction.values()].sort((a, b) => b.count - a.count)) console.log(`${String(fn.count).padStart(5)}  ${fn.file}  ${fn.name}`);
await gateway.close();
