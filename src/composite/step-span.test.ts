import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';

import { installTracer, tracer } from '../core/tracing/trace-port.js';
import { RecordingTracer } from '../core/tracing/testing/recording-tracer.js';
import type { CompositeStep } from './definition.js';
import { traceStep } from './step-span.js';

const step = { id: 'lookup', kind: 'tool', upstream: 'ops', tool: 'get_service', dependsOn: [], arguments: {}, retry: { count: 0, backoffMs: 0 }, timeoutMs: 1000 } as CompositeStep;
let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

test('tracing off: the step runs as it is', async () => {
  assert.deepEqual(await traceStep(step, async () => ({ kind: 'skipped', reason: 'x' })), { kind: 'skipped', reason: 'x' });
});

test('a span per step, what the step does inside is its child, a failed step fails it', async () => {
  const recording = new RecordingTracer();
  uninstall = installTracer(recording);
  await traceStep(step, async () => {
    tracer().startSpan('tools/call get_service').end();
    return { kind: 'failed', reason: 'the tool failed' };
  });
  const span = recording.span('composite.step lookup');
  assert.equal(recording.span('tools/call get_service').parent, span);
  assert.deepEqual(span.attributes, { 'switchboard.step.id': 'lookup', 'switchboard.step.kind': 'tool', 'gen_ai.tool.name': 'get_service', 'switchboard.upstream': 'ops', 'switchboard.step.outcome': 'failed' });
  assert.deepEqual(span.failed, { message: 'the tool failed', type: 'failed' });
  assert.equal(span.ended, true);
});
