/** Parity through the seam: every elicit outcome (accept, decline, cancel, timeout) with every action (continue, abort, skip-remaining). */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { OutcomeAction } from './definition.js';
import type { ElicitationResult } from './elicitation-seam.js';
import { runComposite } from './runner.js';
import { cancelOnAbort, composite, elicitStep, fakeAsker, fakeContext, fakeTools, stepOf, textOfResult, toolStep } from './testing/fakes.js';

type Outcome = 'accept' | 'decline' | 'cancel' | 'timeout';
const OUTCOMES: Outcome[] = ['accept', 'decline', 'cancel', 'timeout'];
const ACTIONS: OutcomeAction[] = ['continue', 'abort', 'skip-remaining'];
const ON = { accept: 'onAccept', decline: 'onDecline', cancel: 'onCancel', timeout: 'onTimeout' } as const;
/** The action every other outcome gets: never the one under test, so only the right `on…` can explain what happens. */
const OTHER: Record<OutcomeAction, OutcomeAction> = { continue: 'abort', abort: 'skip-remaining', 'skip-remaining': 'continue' };

function answerFor(outcome: Outcome): (signal: AbortSignal) => Promise<ElicitationResult> {
  switch (outcome) {
    case 'accept':
      return () => Promise.resolve({ action: 'accept', content: { confirm: true, ticket: 'INC-42' }, answeredBy: 'operator:alice' });
    case 'decline':
      return () => Promise.resolve({ action: 'decline', answeredBy: 'operator:alice' });
    case 'cancel':
      return () => Promise.resolve({ action: 'cancel', answeredBy: 'host' });
    case 'timeout':
      // Nobody answers; when the step's clock aborts the signal, the requester answers "cancel" (as a withdrawn question does).
      return (signal) => cancelOnAbort(signal);
  }
}

function definitionFor(outcome: Outcome, action: OutcomeAction) {
  const on = { onAccept: OTHER[action], onDecline: OTHER[action], onCancel: OTHER[action], onTimeout: OTHER[action], [ON[outcome]]: action };
  return composite([
    elicitStep('approve', { message: 'Restart {{ input.service }}?', timeoutMs: outcome === 'timeout' ? 40 : 5_000, ...on }),
    toolStep('restart', {
      dependsOn: ['approve'],
      arguments: { service: '{{ input.service }}', ticket: '{{ steps.approve.content.ticket }}', approved: '{{ steps.approve.action }}', confirm: '{{ steps.approve.content.confirm }}' },
    }),
    toolStep('notify', { dependsOn: ['restart'], arguments: { text: 'restarted: {{ steps.restart.text }}' } }),
  ], { name: 'safe_restart' });
}

for (const outcome of OUTCOMES) {
  for (const action of ACTIONS) {
    test(`${outcome} with ${ON[outcome]}: ${action}`, async () => {
      const tools = fakeTools();
      const answer = answerFor(outcome);
      const asker = fakeAsker((_request, options) => answer(options.signal));
      const context = fakeContext({ input: { service: 'api' }, tools, asker });
      const { record, result } = await runComposite(definitionFor(outcome, action), context);

      assert.equal(asker.asked.length, 1);
      assert.equal(asker.asked[0]?.request.message, 'Restart api?');
      const approve = stepOf(record, 'approve');
      assert.equal(approve.outcome, outcome, 'the recorded outcome is the real one (a timeout is never recorded as a cancel)');
      assert.equal(approve.state, 'completed');
      const text = textOfResult(result);

      if (action === 'continue') {
        assert.equal(result.isError, undefined);
        assert.equal(record.state, 'completed');
        assert.deepEqual(tools.calls.map((c) => c.tool), ['restart', 'notify']);
        const args = tools.calls[0]?.args;
        if (outcome === 'accept') {
          assert.deepEqual(args, { service: 'api', ticket: 'INC-42', approved: 'accept', confirm: true }, 'the answer round-trips into later templates');
          assert.deepEqual(approve.answer, { confirm: true, ticket: 'INC-42' });
        } else {
          assert.deepEqual(args, { service: 'api', approved: outcome });
          assert.equal(approve.answer, undefined);
        }
        assert.match(text, /^notify ok .*restarted: restart ok/);
      } else {
        assert.equal(tools.calls.length, 0, `${action} runs no later step`);
        for (const id of ['restart', 'notify']) {
          assert.equal(stepOf(record, id).state, 'skipped');
          assert.match(stepOf(record, id).reason ?? '', new RegExp(action === 'abort' ? 'aborted the run' : 'skipped the remaining steps'));
        }
        const who = { accept: /accepted by operator:alice/, decline: /declined by operator:alice/, cancel: /cancelled by host/, timeout: /timed out after 40 ms with no answer/ }[outcome];
        assert.match(text, who);
        assert.match(text, /"Restart api\?"/);
        assert.match(text, /step "approve"/);
        if (action === 'abort') {
          assert.equal(result.isError, true);
          assert.equal(record.state, 'aborted');
          assert.match(text, /^Composite "safe_restart" stopped at step "approve"/);
        } else {
          assert.equal(result.isError, undefined, 'skip-remaining returns what the run has, not an error');
          assert.equal(record.state, 'completed');
          assert.match(text, /the remaining steps were skipped/);
        }
      }
      assert.ok(record.finishedAt);
      assert.equal(record.summary, text);
    });
  }
}

test('onTimeout is distinct from onCancel: the same requester reaction gives different actions', async () => {
  // onCancel continue, onTimeout abort: the requester answers "cancel" only because the step's clock aborted it.
  const tools = fakeTools();
  const asker = fakeAsker((_r, options) => cancelOnAbort(options.signal));
  const definition = composite([elicitStep('approve', { timeoutMs: 30, onCancel: 'continue', onTimeout: 'abort' }), toolStep('restart', { dependsOn: ['approve'] })]);
  const { record, result } = await runComposite(definition, fakeContext({ tools, asker }));
  assert.equal(result.isError, true);
  assert.equal(stepOf(record, 'approve').outcome, 'timeout');
  assert.equal(tools.calls.length, 0);

  // The other way round: a real cancel answer before the clock uses onCancel.
  const asker2 = fakeAsker(() => Promise.resolve({ action: 'cancel' }));
  const definition2 = composite([elicitStep('approve', { timeoutMs: 5_000, onCancel: 'abort', onTimeout: 'continue' }), toolStep('restart', { dependsOn: ['approve'] })]);
  const second = await runComposite(definition2, fakeContext({ tools, asker: asker2 }));
  assert.equal(second.result.isError, true);
  assert.equal(stepOf(second.record, 'approve').outcome, 'cancel');
  assert.match(textOfResult(second.result), /cancelled by the person asked/);
});

test('skip-remaining stops steps already running in parallel and starts none after it', async () => {
  let slowSignal: AbortSignal | undefined;
  const tools = fakeTools({
    slow: (_args, call) => {
      slowSignal = call.signal;
      return new Promise(() => {}); // ignores its signal: the runner must not wait for it
    },
  });
  const asker = fakeAsker(() => new Promise((resolve) => setTimeout(() => resolve({ action: 'decline' }), 10)));
  const definition = composite([
    toolStep('slow'),
    elicitStep('approve', { onDecline: 'skip-remaining' }),
    toolStep('after', { dependsOn: ['approve'] }),
    toolStep('afterSlow', { dependsOn: ['slow'] }),
  ]);
  const { record, result } = await runComposite(definition, fakeContext({ tools, asker }));
  assert.equal(result.isError, undefined);
  assert.equal(slowSignal?.aborted, true);
  assert.equal(stepOf(record, 'slow').state, 'aborted');
  assert.equal(stepOf(record, 'after').state, 'skipped');
  assert.equal(stepOf(record, 'afterSlow').state, 'skipped');
  assert.deepEqual(tools.calls.map((c) => c.tool), ['slow']);
});

test('the question carries meta naming the composite, the step and the run', async () => {
  const asker = fakeAsker(() => Promise.resolve({ action: 'accept', content: { confirm: true }, questionId: 'q-7', answeredBy: 'host' }));
  const { record } = await runComposite(composite([elicitStep('approve')]), fakeContext({ asker, newId: () => 'run-1' }));
  assert.deepEqual(asker.asked[0]?.request.meta, { composite: 'test_composite', step: 'approve', run: 'run-1' });
  assert.equal(stepOf(record, 'approve').questionId, 'q-7');
  assert.equal(stepOf(record, 'approve').answeredBy, 'host');
});
