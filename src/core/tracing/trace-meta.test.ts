import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { carrierOf, isTraceparent, withTraceContext } from './trace-meta.js';

const PARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('trace context in _meta', () => {
  test('reads traceparent, tracestate and baggage from params._meta, ignoring what is malformed', () => {
    assert.deepEqual(carrierOf({ _meta: { traceparent: PARENT, tracestate: 'a=1', baggage: 'k=v' } }), { traceparent: PARENT, tracestate: 'a=1', baggage: 'k=v' });
    assert.deepEqual(carrierOf({ _meta: { traceparent: 'nonsense', tracestate: 'a=1' } }), {});
    assert.deepEqual(carrierOf({ _meta: { traceparent: 7 } }), {});
    assert.deepEqual(carrierOf({ _meta: 'x' }), {});
    assert.deepEqual(carrierOf(undefined), {});
    assert.deepEqual(carrierOf({ _meta: { traceparent: PARENT, tracestate: 'x'.repeat(600) } }), { traceparent: PARENT });
  });

  test('a traceparent is version-traceid-spanid-flags in lowercase hex, never all zeros', () => {
    assert.equal(isTraceparent(PARENT), true);
    assert.equal(isTraceparent(PARENT.toUpperCase()), false);
    assert.equal(isTraceparent('00-00000000000000000000000000000000-00f067aa0ba902b7-01'), false);
    assert.equal(isTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01'), false);
    assert.equal(isTraceparent('ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'), false);
  });

  test('writes the keys into _meta, replacing the caller\'s, keeping every other key and leaving params unchanged', () => {
    const params = { name: 't', _meta: { progressToken: 3, traceparent: 'old', baggage: 'old=1' } };
    const out = withTraceContext(params, { traceparent: PARENT, tracestate: 'gw=1' });
    assert.deepEqual(out, { name: 't', _meta: { progressToken: 3, traceparent: PARENT, tracestate: 'gw=1' } });
    assert.deepEqual(params._meta, { progressToken: 3, traceparent: 'old', baggage: 'old=1' });
    assert.deepEqual(withTraceContext(undefined, { traceparent: PARENT }), { _meta: { traceparent: PARENT } });
  });

  test('with nothing to write, params stay as they are', () => {
    const params = { name: 't', _meta: { traceparent: PARENT } };
    assert.equal(withTraceContext(params, {}), params);
    assert.equal(withTraceContext(undefined, {}), undefined);
  });
});
