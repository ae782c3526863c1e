import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';

import { installTracer, NOOP_SPAN, NOOP_TRACER, tracer } from './trace-port.js';
import { RecordingTracer } from './testing/recording-tracer.js';

describe('the tracing port', () => {
  let uninstall: (() => void) | undefined;
  afterEach(() => uninstall?.());

  test('is the no-op tracer until one is installed, and its spans record nothing', () => {
    assert.equal(tracer(), NOOP_TRACER);
    assert.equal(tracer().enabled, false);
    const span = tracer().startSpan('tools/call x', { kind: 'server', attributes: { 'mcp.method.name': 'tools/call' } });
    assert.equal(span, NOOP_SPAN);
    assert.equal(span.recording, false);
    assert.deepEqual(span.carrier(), {});
    span.addEvent('ignored');
    span.fail('ignored');
    span.end();
    assert.equal(tracer().within(span, () => 42), 42);
  });

  test('an installed tracer is the one every layer reaches, until it is uninstalled', () => {
    const recording = new RecordingTracer();
    uninstall = installTracer(recording);
    assert.equal(tracer(), recording);
    const parent = tracer().startSpan('parent');
    const child = tracer().within(parent, () => tracer().startSpan('child'));
    child.end();
    parent.end();
    assert.equal(recording.span('child').parent, recording.span('parent'));
    uninstall();
    uninstall = undefined;
    assert.equal(tracer(), NOOP_TRACER);
  });

  test('installing a second tracer over a live one is refused (one per process)', () => {
    uninstall = installTracer(new RecordingTracer());
    assert.throws(() => installTracer(new RecordingTracer()), /already installed/);
  });
});
