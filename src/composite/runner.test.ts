/** The runner: the DAG, conditions, retries and timeouts, forEach, the caps, host cancel, the output and the record. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { runComposite } from './runner.js';
import { composite, elicitStep, fakeAsker, fakeContext, fakeTools, forEachStep, stepOf, textOf, textOfResult, toolStep, waitForAbort } from './testing/fakes.js';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `count` parties arrived; rejects after a generous bound so a serial run fails instead of hanging. */
function barrier(count: number, boundMs = 2_000): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return () => {
    arrived++;
    if (arrived === count) open();
    return Promise.race([opened, delay(boundMs).then(() => Promise.reject(new Error('the barrier was never reached: steps ran one after another')))]);
  };
}

test('independent steps run in parallel; a step waits for all its dependencies', async () => {
  const arrive = barrier(2);
  const order: string[] = [];
  const tools = fakeTools({
    a: async () => {
      order.push('a start');
      await arrive();
      order.push('a end');
      return textOf('A');
    },
    b: async () => {
      order.push('b start');
      await arrive();
      await delay(5);
      order.push('b end');
      return textOf('B');
    },
    c: (args) => textOf(`C saw ${String(args.a)} and ${String(args.b)}`),
  });
  const definition = composite([toolStep('a'), toolStep('b'), toolStep('c', { dependsOn: ['a', 'b'], arguments: { a: '{{ steps.a.text }}', b: '{{ steps.b.text }}' } })]);
  const { record, result } = await runComposite(definition, fakeContext({ tools }));
  assert.equal(result.isError, undefined);
  assert.deepEqual(order.slice(0, 2).sort(), ['a start', 'b start']);
  assert.equal(tools.calls[2]?.tool, 'c');
  assert.equal(textOfResult(result), 'C saw A and B', 'without output, the text is the last step\'s');
  assert.equal(record.state, 'completed');
  assert.deepEqual(record.steps.map((s) => [s.id, s.state, s.attempts]), [['a', 'completed', 1], ['b', 'completed', 1], ['c', 'completed', 1]]);
  for (const step of record.steps) assert.ok(step.startedAt && step.finishedAt && !Number.isNaN(Date.parse(step.startedAt)));
});

test('a false condition skips the step (with the reason) and its dependents still run', async () => {
  const tools = fakeTools();
  const definition = composite([
    toolStep('backup', { condition: '{{ input.dryRun == false }}' }),
    toolStep('restart', { dependsOn: ['backup'], condition: '{{ !input.dryRun }}', arguments: { backup: '{{ steps.backup.text | default(\'none\') }}' } }),
  ]);
  const { record } = await runComposite(definition, fakeContext({ tools, input: { dryRun: true } }));
  assert.equal(stepOf(record, 'backup').state, 'skipped');
  assert.match(stepOf(record, 'backup').reason ?? '', /condition "\{\{ input.dryRun == false \}\}" is false/);
  assert.equal(stepOf(record, 'backup').startedAt, undefined);
  assert.equal(stepOf(record, 'restart').state, 'skipped');
  assert.equal(tools.calls.length, 0);

  const run2 = await runComposite(definition, fakeContext({ tools, input: { dryRun: false } }));
  assert.equal(run2.record.state, 'completed');
  assert.deepEqual(tools.calls.map((c) => c.tool), ['backup', 'restart']);
});

test('retries on rejection and on isError results, waiting the backoff, doubling', async () => {
  const times: number[] = [];
  let n = 0;
  const tools = fakeTools({
    flaky: () => {
      times.push(Date.now());
      n++;
      if (n === 1) return Promise.reject(new Error('connection reset'));
      if (n === 2) return textOf('busy', { isError: true });
      return textOf('done');
    },
  });
  const context = fakeContext({ tools });
  const { record, result } = await runComposite(composite([toolStep('flaky', { retry: { count: 3, backoffMs: 20 } })]), context);
  assert.equal(result.isError, undefined);
  assert.equal(textOfResult(result), 'done');
  assert.equal(stepOf(record, 'flaky').attempts, 3);
  const delays = context.logger.lines.filter((line) => /retrying/.test(line.message)).map((line) => line.fields?.delayMs);
  assert.deepEqual(delays, [20, 40]);
  assert.ok((times[1] ?? 0) - (times[0] ?? 0) >= 15, 'waited about the first backoff');
  assert.ok((times[2] ?? 0) - (times[1] ?? 0) >= 35, 'waited about twice the backoff');
});

test('a step that still fails after its retries ends the composite with an isError naming the step and the error', async () => {
  const tools = fakeTools({ broken: () => textOf('disk full', { isError: true }) });
  const definition = composite([toolStep('broken', { retry: { count: 1, backoffMs: 1 } }), toolStep('after', { dependsOn: ['broken'] })]);
  const { record, result } = await runComposite(definition, fakeContext({ tools }));
  assert.equal(result.isError, true);
  assert.equal(textOfResult(result), 'Composite "test_composite" failed at step "broken": ops/broken failed after 2 attempts: the tool returned an error: disk full');
  assert.equal(record.state, 'failed');
  assert.equal(stepOf(record, 'broken').state, 'failed');
  assert.equal(stepOf(record, 'broken').attempts, 2);
  assert.equal(stepOf(record, 'after').state, 'skipped');
  assert.deepEqual(tools.calls.map((c) => c.tool), ['broken', 'broken']);
});

test('each attempt has its own timeout; a callee that ignores its signal cannot hold the run', async () => {
  const signals: AbortSignal[] = [];
  const tools = fakeTools({
    hang: (_args, call) => {
      signals.push(call.signal);
      return new Promise(() => {});
    },
  });
  const { record, result } = await runComposite(composite([toolStep('hang', { timeoutMs: 30, retry: { count: 1, backoffMs: 1 } })]), fakeContext({ tools }));
  assert.equal(result.isError, true);
  assert.match(textOfResult(result), /failed after 2 attempts: timed out after 30 ms/);
  assert.equal(signals.length, 2);
  assert.ok(signals.every((signal) => signal.aborted));
  assert.equal(tools.calls[0]?.timeoutMs, 30);
  assert.equal(tools.calls[0]?.stepId, 'hang');
  assert.equal(stepOf(record, 'hang').attempts, 2);
});

test('a failing step aborts the steps running beside it', async () => {
  let sibling: AbortSignal | undefined;
  const tools = fakeTools({
    slow: (_args, call) => {
      sibling = call.signal;
      return waitForAbort(call.signal);
    },
    bad: () => Promise.reject(new Error('boom')),
  });
  const { record, result } = await runComposite(composite([toolStep('slow'), toolStep('bad')]), fakeContext({ tools }));
  assert.equal(result.isError, true);
  assert.match(textOfResult(result), /step "bad": ops\/bad failed after 1 attempt: boom/);
  assert.equal(sibling?.aborted, true);
  assert.equal(stepOf(record, 'slow').state, 'aborted');
  assert.match(stepOf(record, 'slow').reason ?? '', /step "bad" failed/);
});

test('forEach runs its inner step per item, at most `concurrency` at once, in order, in records <id>[i]', async () => {
  let inFlight = 0;
  let most = 0;
  const tools = fakeTools({
    restart: async (args) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await delay(15);
      inFlight--;
      return textOf(`restarted ${String(args.name)} #${String(args.i)}`);
    },
  });
  const definition = composite([
    forEachStep('each', toolStep('restart', { arguments: { name: '{{ item.name }}', i: '{{ index }}' } }), { concurrency: 2 }),
    toolStep('report', { dependsOn: ['each'], arguments: { count: '{{ steps.each | length }}', first: '{{ steps.each[0].text }}' } }),
  ]);
  const items = ['a', 'b', 'c', 'd', 'e'].map((name) => ({ name }));
  const { record, result } = await runComposite(definition, fakeContext({ tools, input: { items } }));
  assert.equal(result.isError, undefined);
  assert.equal(most, 2);
  const each = stepOf(record, 'each');
  assert.deepEqual((each.output as { text: string }[]).map((o) => o.text), ['restarted a #0', 'restarted b #1', 'restarted c #2', 'restarted d #3', 'restarted e #4']);
  assert.deepEqual(record.steps.map((s) => s.id).filter((id) => id.startsWith('each[')).sort(), ['each[0]', 'each[1]', 'each[2]', 'each[3]', 'each[4]']);
  assert.ok(record.steps.filter((s) => s.id.startsWith('each[')).every((s) => s.state === 'completed' && s.kind === 'tool'));
  assert.deepEqual(tools.calls.map((c) => c.stepId).filter((id) => id.startsWith('each[')).sort(), ['each[0]', 'each[1]', 'each[2]', 'each[3]', 'each[4]']);
  assert.deepEqual(tools.calls.at(-1)?.args, { count: 5, first: 'restarted a #0' });
});

test('forEach refuses more items than maxForEachItems, and a non-list', async () => {
  const tools = fakeTools();
  const definition = composite([forEachStep('each', toolStep('restart'))], { limits: { maxSteps: 10, maxForEachItems: 3, totalTimeoutMs: 10_000 } });
  const over = await runComposite(definition, fakeContext({ tools, input: { items: [1, 2, 3, 4] } }));
  assert.equal(over.result.isError, true);
  assert.match(textOfResult(over.result), /step "each": it has 4 items, over the limit of 3/);
  assert.equal(tools.calls.length, 0);

  const notList = await runComposite(definition, fakeContext({ tools, input: { items: 'abc' } }));
  assert.match(textOfResult(notList.result), /its items did not render a list \(got string\)/);

  const atLimit = await runComposite(definition, fakeContext({ tools, input: { items: [1, 2, 3] } }));
  assert.equal(atLimit.result.isError, undefined);
  const empty = await runComposite(definition, fakeContext({ tools, input: { items: [] } }));
  assert.deepEqual(stepOf(empty.record, 'each').output, []);
});

test('forEach: a failing item stops the loop and fails the run; an inner skip leaves null', async () => {
  const tools = fakeTools({ restart: (args) => (args.n === 2 ? Promise.reject(new Error('nope')) : textOf(`ok ${String(args.n)}`)) });
  const definition = composite([forEachStep('each', toolStep('restart', { arguments: { n: '{{ item }}' }, condition: '{{ item != 1 }}' }), { concurrency: 1 })]);
  const { record, result } = await runComposite(definition, fakeContext({ tools, input: { items: [0, 1, 2, 3] } }));
  assert.equal(result.isError, true);
  assert.match(textOfResult(result), /failed at step "each": item 2: ops\/restart failed after 1 attempt: nope/);
  assert.equal(stepOf(record, 'each[1]').state, 'skipped');
  assert.equal(record.steps.some((s) => s.id === 'each[3]'), false, 'no item starts after the failure');
});

test('forEach with an inner elicit: each item asked, and abort stops the loop', async () => {
  const asker = fakeAsker((request) => Promise.resolve(request.message.includes('db') ? { action: 'decline', answeredBy: 'operator:bob' } : { action: 'accept', content: { confirm: true } }));
  const tools = fakeTools();
  const definition = composite([
    forEachStep('approvals', elicitStep('ask', { message: 'Restart {{ item }}?', onDecline: 'abort' }), { concurrency: 1 }),
    toolStep('restart', { dependsOn: ['approvals'] }),
  ]);
  const { record, result } = await runComposite(definition, fakeContext({ asker, tools, input: { items: ['api', 'db', 'web'] } }));
  assert.equal(result.isError, true);
  assert.match(textOfResult(result), /stopped at step "approvals": item 1: the question "Restart db\?" was declined by operator:bob/);
  assert.equal(asker.asked.length, 2);
  assert.equal(tools.calls.length, 0);
  assert.equal(stepOf(record, 'approvals[1]').outcome, 'decline');
});

test('maxSteps is checked before anything runs', async () => {
  const tools = fakeTools();
  const definition = composite([toolStep('a'), toolStep('b'), toolStep('c')], { limits: { maxSteps: 2, maxForEachItems: 10, totalTimeoutMs: 10_000 } });
  const { record, result } = await runComposite(definition, fakeContext({ tools }));
  assert.equal(result.isError, true);
  assert.match(textOfResult(result), /has 3 steps, over its limit of 2; nothing was run/);
  assert.equal(tools.calls.length, 0);
  assert.equal(record.state, 'failed');
});

test('a definition that is not a DAG is refused, not deadlocked', async () => {
  const definition = composite([toolStep('a', { dependsOn: ['b'] }), toolStep('b', { dependsOn: ['a'] })]);
  const { result } = await runComposite(definition, fakeContext());
  assert.match(textOfResult(result), /cannot run: the steps depend on each other in a cycle: a → b → a/);
  const unknown = await runComposite(composite([toolStep('a', { dependsOn: ['ghost'] })]), fakeContext());
  assert.match(textOfResult(unknown.result), /depends on "ghost", which is not a step/);
});

test('the total timeout aborts running steps; the run is timed-out and the result an error', async () => {
  let seen: AbortSignal | undefined;
  const tools = fakeTools({
    slow: (_args, call) => {
      seen = call.signal;
      return waitForAbort(call.signal);
    },
  });
  const definition = composite([toolStep('slow', { timeoutMs: 60_000 }), toolStep('after', { dependsOn: ['slow'] })], { limits: { maxSteps: 10, maxForEachItems: 10, totalTimeoutMs: 40 } });
  const { record, result } = await runComposite(definition, fakeContext({ tools }));
  assert.equal(result.isError, true);
  assert.match(textOfResult(result), /timed out: it ran longer than its total limit of 40 ms \(still running: "slow"\)/);
  assert.equal(record.state, 'timed-out');
  assert.equal(seen?.aborted, true);
  assert.equal(stepOf(record, 'slow').state, 'aborted');
  assert.equal(stepOf(record, 'after').state, 'skipped');
});

test('the total timeout also ends a question nobody answers', async () => {
  const asker = fakeAsker((_r, options) => waitForAbort(options.signal));
  const definition = composite([elicitStep('approve', { timeoutMs: 60_000 })], { limits: { maxSteps: 10, maxForEachItems: 10, totalTimeoutMs: 30 } });
  const { record } = await runComposite(definition, fakeContext({ asker }));
  assert.equal(record.state, 'timed-out');
  assert.equal(stepOf(record, 'approve').state, 'aborted');
  assert.equal(stepOf(record, 'approve').outcome, undefined, 'the run\'s limit is not the step\'s timeout');
  assert.equal(asker.asked[0]?.signal.aborted, true);
});

test('the host cancelling aborts running steps; the record ends aborted', async () => {
  const host = new AbortController();
  let seen: AbortSignal | undefined;
  const tools = fakeTools({
    slow: (_args, call) => {
      seen = call.signal;
      setTimeout(() => host.abort(), 5);
      return waitForAbort(call.signal);
    },
  });
  const context = fakeContext({ tools, signal: host.signal });
  const { record, result } = await runComposite(composite([toolStep('slow'), toolStep('after', { dependsOn: ['slow'] })]), context);
  assert.equal(result.isError, true);
  assert.match(textOfResult(result), /was cancelled by the host/);
  assert.equal(record.state, 'aborted');
  assert.equal(seen?.aborted, true);
  assert.equal(stepOf(record, 'slow').state, 'aborted');
  assert.equal(stepOf(record, 'slow').reason, 'the host cancelled the run');
  assert.equal(stepOf(record, 'after').state, 'skipped');

  const already = new AbortController();
  already.abort();
  const tools2 = fakeTools();
  const early = await runComposite(composite([toolStep('a')]), fakeContext({ tools: tools2, signal: already.signal }));
  assert.equal(early.record.state, 'aborted');
  assert.equal(tools2.calls.length, 0);
});

test('output with outputSchema becomes structuredContent, and its JSON the text', async () => {
  const tools = fakeTools({ lookup: () => textOf('found', { structuredContent: { id: 7, status: 'open' } }) });
  const asker = fakeAsker(() => Promise.resolve({ action: 'accept', content: { confirm: true, ticket: 'T-1' } }));
  const definition = composite([toolStep('lookup'), elicitStep('approve', { dependsOn: ['lookup'] })], {
    outputSchema: { type: 'object' },
    output: { incident: '{{ steps.lookup.structured.id }}', ticket: '{{ steps.approve.content.ticket }}', status: 'now {{ steps.lookup.structured.status }}' },
  });
  const { result } = await runComposite(definition, fakeContext({ tools, asker }));
  assert.deepEqual(result.structuredContent, { incident: 7, ticket: 'T-1', status: 'now open' });
  assert.deepEqual(JSON.parse(textOfResult(result)), result.structuredContent);

  const bad = await runComposite(composite([toolStep('lookup')], { outputSchema: { type: 'object' }, output: '{{ steps.lookup.text }}' }), fakeContext({ tools }));
  assert.equal(bad.result.isError, true);
  assert.match(textOfResult(bad.result), /output did not render an object/);

  const textOnly = await runComposite(composite([toolStep('lookup')], { output: 'Incident {{ steps.lookup.structured.id }}' }), fakeContext({ tools }));
  assert.equal(textOfResult(textOnly.result), 'Incident 7');
  assert.equal(textOnly.result.structuredContent, undefined);
});

test('skip-remaining with an output renders what the run has', async () => {
  const asker = fakeAsker(() => Promise.resolve({ action: 'decline' }));
  const definition = composite([toolStep('lookup'), elicitStep('approve', { dependsOn: ['lookup'], onDecline: 'skip-remaining' }), toolStep('restart', { dependsOn: ['approve'] })], {
    outputSchema: { type: 'object' },
    output: { approved: '{{ steps.approve.action }}', restarted: '{{ steps.restart.text | default(\'no\') }}' },
  });
  const { result } = await runComposite(definition, fakeContext({ asker }));
  assert.equal(result.isError, undefined);
  assert.deepEqual(result.structuredContent, { approved: 'decline', restarted: 'no' });
});

test('every change reaches the observer, and an observer that throws does not break the run', async () => {
  const context = fakeContext();
  await runComposite(composite([toolStep('a'), toolStep('b', { dependsOn: ['a'] })]), context);
  assert.deepEqual(context.changes, ['run:running', 'a:pending', 'b:pending', 'a:running', 'a:running', 'a:completed', 'b:running', 'b:running', 'b:completed', 'run:completed']);

  const throwing = fakeContext({ observer: { changed: () => { throw new Error('disk full'); } } });
  const { record } = await runComposite(composite([toolStep('a')]), throwing);
  assert.equal(record.state, 'completed');
  assert.ok(throwing.logger.lines.some((line) => line.level === 'error' && /observer failed/.test(line.message)));
});

test('templated arguments: raw values keep their type, and a bad template fails the step clearly', async () => {
  const tools = fakeTools();
  const definition = composite([toolStep('a', { arguments: { n: '{{ input.n }}', list: '{{ input.list }}', s: 'n={{ input.n }}' } })]);
  await runComposite(definition, fakeContext({ tools, input: { n: 3, list: [1, { x: 2 }] } as JsonObject }));
  assert.deepEqual(tools.calls[0]?.args, { n: 3, list: [1, { x: 2 }], s: 'n=3' });

  const bad = await runComposite(composite([toolStep('a', { arguments: { x: '{{ oops }}' } })]), fakeContext());
  assert.match(textOfResult(bad.result), /step "a": its arguments could not be rendered: .*unknown name "oops"/);
});

test('an elicit step\'s password and writeOnly answers reach later steps as given; the run record keeps [redacted]', async () => {
  const LOGIN: JsonObject = {
    type: 'object',
    properties: { user: { type: 'string' }, password: { type: 'string', format: 'password' }, key: { type: 'string', writeOnly: true } },
    required: ['password'],
  };
  const asker = fakeAsker(() => Promise.resolve({ action: 'accept', content: { user: 'ada', password: 'pw-S3cret', key: 'key-S3cret' } }));
  const tools = fakeTools({ use: () => Promise.resolve(textOf('used')) });
  const definition = composite([
    elicitStep('login', { requestedSchema: LOGIN }),
    toolStep('use', { dependsOn: ['login'], arguments: { password: '{{ steps.login.content.password }}', key: '{{ steps.login.content.key }}' } }),
  ]);
  const { record } = await runComposite(definition, fakeContext({ asker, tools }));
  assert.equal(record.state, 'completed');
  assert.deepEqual(tools.calls[0]?.args, { password: 'pw-S3cret', key: 'key-S3cret' });
  const login = stepOf(record, 'login');
  assert.deepEqual(login.answer, { user: 'ada', password: '[redacted]', key: '[redacted]' });
  assert.deepEqual(login.output, { action: 'accept', content: { user: 'ada', password: '[redacted]', key: '[redacted]' } });
  assert.equal(/S3cret/.test(JSON.stringify(record)), false, JSON.stringify(record));
});

test('forEach over an elicit with a password field: the loop\'s record and each item\'s keep [redacted]', async () => {
  const PIN: JsonObject = { type: 'object', properties: { pin: { type: 'string', format: 'password' } }, required: ['pin'] };
  const asker = fakeAsker(() => Promise.resolve({ action: 'accept', content: { pin: 'pin-S3cret' } }));
  const definition = composite([forEachStep('pins', elicitStep('ask', { message: 'PIN for {{ item }}?', requestedSchema: PIN }), { concurrency: 1 })]);
  const { record, result } = await runComposite(definition, fakeContext({ asker, input: { items: ['a', 'b'] } }));
  assert.equal(record.state, 'completed');
  assert.match(textOfResult(result), /pin-S3cret/, 'the run itself (its result) has the answers as given');
  assert.deepEqual(stepOf(record, 'pins').output, [0, 1].map(() => ({ action: 'accept', content: { pin: '[redacted]' } })));
  assert.equal(/S3cret/.test(JSON.stringify(record.steps)), false, JSON.stringify(record.steps));
});

test('a run records the principal of the host that called it, and none when hosts do not authenticate', async () => {
  const tools = fakeTools({ one: () => textOf('done') });
  const named = await runComposite(composite([toolStep('one')]), fakeContext({ tools, principal: 'Ada <ada> (https://id.example)' }));
  assert.equal(named.record.principal, 'Ada <ada> (https://id.example)');
  const anonymous = await runComposite(composite([toolStep('one')]), fakeContext({ tools }));
  assert.equal('principal' in anonymous.record, false);
});
