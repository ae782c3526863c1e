/** @module Tests of the call registry without a gateway: open, bind, the lookups, and the one way a call ends. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ManualClock } from '../core/clock.js';
import type { CallHost } from './calls.js';
import { CallRegistry } from './calls.js';

interface Upstream {
  name: string;
}

const host = (id: string): CallHost & { closed: boolean } => ({ id, closed: false });

function setup() {
  const clock = new ManualClock(1_000);
  return { clock, calls: new CallRegistry<CallHost, Upstream>(clock), alice: host('alice'), bob: host('bob'), desk: { name: 'desk' }, files: { name: 'files' } };
}

test('a call is found by host and request id, and once bound by upstream and upstream id', () => {
  const { clock, calls, alice, desk } = setup();
  const call = calls.open({ host: alice, requestId: 7, tool: { host: 'desk_restart', upstream: 'restart' } });
  assert.equal(calls.get(alice, 7), call);
  assert.equal(calls.get(alice, '7'), undefined, 'a string id is another request');
  assert.equal(call.streamId, 7, 'by default a call travels on its own stream');
  assert.equal(call.kind, 'forwarded');
  assert.equal(call.upstream, undefined);
  assert.deepEqual(calls.onUpstream(desk), []);

  clock.advance(5);
  assert.equal(calls.bind(call, desk, 3), true);
  assert.equal(calls.find(desk, 3), call);
  assert.equal(calls.find(desk, '3'), undefined);
  assert.equal(call.upstreamId, 3);
  assert.equal(call.startedAt, 1_005);
  assert.deepEqual(call.tool, { host: 'desk_restart', upstream: 'restart' });
});

test('the same request id of two host sessions names two calls', () => {
  const { calls, alice, bob, desk } = setup();
  const a = calls.open({ host: alice, requestId: 1 });
  const b = calls.open({ host: bob, requestId: 1 });
  calls.bind(a, desk, 1);
  calls.bind(b, desk, 2);
  assert.equal(calls.get(alice, 1), a);
  assert.equal(calls.get(bob, 1), b);
  assert.deepEqual(calls.onUpstream(desk), [a, b]);
  assert.deepEqual(calls.ofHost(bob), [b]);
  assert.equal(calls.find(desk, 2, bob), b);
  assert.equal(calls.find(desk, 2, alice), undefined, 'a host finds only its own calls');
});

test('a retry binds the new upstream id: the old one no longer finds the call, which counts as the newest request', () => {
  const { clock, calls, alice, desk } = setup();
  const first = calls.open({ host: alice, requestId: 'a' });
  const second = calls.open({ host: alice, requestId: 'b' });
  calls.bind(first, desk, 1);
  calls.bind(second, desk, 2);
  clock.advance(40);
  calls.bind(first, desk, 3);
  assert.equal(calls.find(desk, 1), undefined);
  assert.equal(calls.find(desk, 3), first);
  assert.equal(first.startedAt, 1_040);
  assert.deepEqual(calls.onUpstream(desk).map((call) => call.upstreamId), [2, 3]);
});

test('a composite step travels on the composite\'s stream; the composite itself is a call with no upstream', () => {
  const { calls, alice, desk } = setup();
  const composite = calls.open({ host: alice, requestId: 9, kind: 'composite' });
  const step = calls.open({ host: alice, requestId: '9#lookup#1', streamId: 9 });
  calls.bind(step, desk, 4);
  assert.equal(step.streamId, 9);
  assert.deepEqual(calls.ofHost(alice), [composite, step]);
  assert.deepEqual(calls.onUpstream(desk), [step]);
  const ended = calls.end(composite, 'host-cancelled', 'stop it');
  assert.equal(ended?.tellUpstream, false, 'a composite has no upstream request to cancel');
  assert.equal(composite.abort.signal.reason, 'stop it');
  assert.equal(calls.get(alice, '9#lookup#1'), step, 'its steps are calls of their own');
});

test('ending: a finished call is removed but not aborted; a stopped one is aborted and its upstream must be told', () => {
  const { calls, alice, desk } = setup();
  const done = calls.open({ host: alice, requestId: 1 });
  calls.bind(done, desk, 1);
  assert.deepEqual(
    { tell: calls.end(done, 'finished')?.tellUpstream, aborted: done.abort.signal.aborted },
    { tell: false, aborted: false },
  );
  assert.equal(calls.get(alice, 1), undefined);
  assert.equal(calls.find(desk, 1), undefined);

  for (const [why, settles] of [['host-cancelled', true], ['step-stopped', true], ['session-closed', false]] as const) {
    const call = calls.open({ host: alice, requestId: why });
    calls.bind(call, desk, 10);
    const ended = calls.end(call, why, `because ${why}`);
    assert.deepEqual(
      { tell: ended?.tellUpstream, settles: ended?.settleQuestions, reason: call.abort.signal.reason },
      { tell: true, settles, reason: `because ${why}` },
      why,
    );
    assert.deepEqual(calls.onUpstream(desk), [], why);
  }
});

test('a call ends once: a second end, or a bind after it, does nothing', () => {
  const { calls, alice, desk } = setup();
  const call = calls.open({ host: alice, requestId: 1 });
  calls.bind(call, desk, 1);
  assert.ok(calls.end(call, 'host-cancelled', 'first'));
  assert.equal(calls.end(call, 'session-closed', 'second'), undefined);
  assert.equal(call.abort.signal.reason, 'first');
  assert.equal(calls.bind(call, desk, 2), false);
  assert.deepEqual(calls.onUpstream(desk), []);
});

test('a call not yet sent is stopped without telling any upstream', () => {
  const { calls, alice } = setup();
  const call = calls.open({ host: alice, requestId: 1 });
  const ended = calls.end(call, 'host-cancelled', 'early');
  assert.equal(ended?.tellUpstream, false);
  assert.equal(call.abort.signal.aborted, true);
});

test('a call opened again under the same request id replaces the older, whose end no longer touches the newer', () => {
  const { calls, alice, desk } = setup();
  const older = calls.open({ host: alice, requestId: 1 });
  calls.bind(older, desk, 1);
  const newer = calls.open({ host: alice, requestId: 1 });
  calls.bind(newer, desk, 2);
  assert.equal(calls.end(older, 'finished'), undefined);
  assert.equal(calls.get(alice, 1), newer);
  assert.deepEqual(calls.onUpstream(desk), [newer]);
});

test('a per-session upstream session has the host that adopted it as its owner', () => {
  const { calls, alice, desk, files } = setup();
  calls.adopt(desk, alice);
  assert.equal(calls.ownerOf(desk), alice);
  assert.equal(calls.ownerOf(files), undefined);
});
