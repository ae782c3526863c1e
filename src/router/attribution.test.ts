/** @module Tests of attribution without a gateway: related ids, progress tokens, a single call, the burst rule on a manual clock, pause sets. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ManualClock } from '../core/clock.js';
import type { Attributed } from './attribution.js';
import { BURST_MS, CallAttribution } from './attribution.js';
import type { CallHost } from './calls.js';
import { CallRegistry } from './calls.js';

interface Host extends CallHost {
  closed: boolean;
}
interface Upstream {
  name: string;
}

const none = (): ReadonlySet<number> => new Set();

function setup() {
  const clock = new ManualClock(10_000);
  const calls = new CallRegistry<Host, Upstream>(clock);
  const attribution = new CallAttribution(calls, clock);
  const alice: Host = { id: 'alice', closed: false };
  const bob: Host = { id: 'bob', closed: false };
  const shared: Upstream = { name: 'shared' };
  const own: Upstream = { name: 'own' };
  calls.adopt(own, alice);
  /** Opens a host call and sends it to `upstream` as `upstreamId`. */
  const send = (host: Host, requestId: string, upstream: Upstream, upstreamId: number) => {
    const call = calls.open({ host, requestId });
    calls.bind(call, upstream, upstreamId);
    return call;
  };
  /** Alice's calls a1 and a2 (ids 1 and 2) of her per-session upstream, sent 5 ms ago. */
  const twoOwnCalls = () => {
    send(alice, 'a1', own, 1);
    send(alice, 'a2', own, 2);
    clock.advance(5);
  };
  return { clock, calls, attribution, alice, bob, shared, own, send, twoOwnCalls };
}

/** A message with no hint: neither a related call nor a progress token. */
const AMBIGUOUS = { meta: undefined, relatedCallId: undefined };
/** A message the transport saw on the response stream of our call `id`. */
const onStreamOf = (id: number) => ({ meta: undefined, relatedCallId: id });

const seen = (target: Attributed<Host, Upstream> | undefined) =>
  target === undefined ? undefined : { host: target.host.id, call: target.call?.requestId, pause: target.pause };

test('the call whose stream carried it wins over everything else, on a shared upstream too', () => {
  const { attribution, shared, alice, bob, send } = setup();
  send(alice, 'a1', shared, 1);
  send(bob, 'b1', shared, 2);
  assert.deepEqual(seen(attribution.question(shared, { meta: { progressToken: 1 }, relatedCallId: 2 }, none)), { host: 'bob', call: 'b1', pause: [2] });
});

test('a progress token naming a call in flight attributes to it', () => {
  const { attribution, shared, alice, bob, send } = setup();
  send(alice, 'a1', shared, 1);
  send(bob, 'b1', shared, 2);
  assert.deepEqual(seen(attribution.question(shared, { meta: { progressToken: 1 }, relatedCallId: undefined }, none)), { host: 'alice', call: 'a1', pause: [1] });
  assert.equal(attribution.question(shared, { meta: { progressToken: '1' }, relatedCallId: undefined }, none), undefined, 'our tokens are numbers');
});

test('a single call in flight is the one, even on a shared upstream', () => {
  const { attribution, shared, bob, send } = setup();
  send(bob, 'b1', shared, 5);
  assert.deepEqual(seen(attribution.question(shared, AMBIGUOUS, none)), { host: 'bob', call: 'b1', pause: [5] });
});

test('several calls of a shared upstream and no hint: nobody', () => {
  const { attribution, shared, alice, bob, send } = setup();
  send(alice, 'a1', shared, 1);
  send(bob, 'b1', shared, 2);
  assert.equal(attribution.question(shared, { meta: {}, relatedCallId: undefined }, none), undefined);
  assert.equal(attribution.question(shared, onStreamOf(99), none), undefined, 'a request of the gateway\'s own is no host\'s');
});

test('on the stream of a request of the gateway\'s own, a per-session upstream\'s question is its owner\'s, outside any call, and pauses that request', () => {
  const { attribution, own, twoOwnCalls } = setup();
  twoOwnCalls();
  assert.deepEqual(seen(attribution.question(own, onStreamOf(99), none)), { host: 'alice', call: undefined, pause: [99] });
  assert.equal(seen(attribution.question(own, AMBIGUOUS, none))?.call, 'a1', 'and it starts no burst');
});

test('a call of a closed host, and a closed owner, take nothing', () => {
  const { attribution, shared, own, alice, bob, send } = setup();
  send(bob, 'b1', shared, 1);
  bob.closed = true;
  assert.equal(attribution.question(shared, onStreamOf(1), none), undefined);
  alice.closed = true;
  assert.equal(attribution.question(own, AMBIGUOUS, none), undefined);
});

test('a per-session upstream with no call in flight: its owner, outside any call', () => {
  const { attribution, own } = setup();
  assert.deepEqual(seen(attribution.question(own, AMBIGUOUS, none)), { host: 'alice', call: undefined, pause: [] });
});

test('several calls of a per-session upstream: the oldest that asked nothing yet, and every call pauses', () => {
  const { attribution, own, alice, send } = setup();
  send(alice, 'a1', own, 1);
  send(alice, 'a2', own, 2);
  send(alice, 'a3', own, 3);
  const asking = new Set([1]);
  const open = (host: Host) => {
    assert.equal(host, alice, 'the owner is asked which of its calls have questions open');
    return asking;
  };
  assert.deepEqual(seen(attribution.notification(own, AMBIGUOUS, open)), { host: 'alice', call: 'a2', pause: [1, 2, 3] });
  // Every call asking: the oldest.
  asking.add(2).add(3);
  assert.deepEqual(seen(attribution.notification(own, AMBIGUOUS, open))?.call, 'a1');
});

test('the burst rule: within BURST_MS a question follows the previous one, after it the oldest call without questions', () => {
  const { clock, attribution, own, twoOwnCalls } = setup();
  twoOwnCalls();
  // The first question came on a2's stream.
  assert.equal(seen(attribution.question(own, onStreamOf(2), none))?.call, 'a2');
  clock.advance(BURST_MS - 1);
  assert.deepEqual(seen(attribution.question(own, AMBIGUOUS, () => new Set([2]))), { host: 'alice', call: 'a2', pause: [1, 2] });
  // That question went to a2 too, so the burst goes on from its time: a burst is measured from its latest question.
  clock.advance(BURST_MS - 1);
  assert.equal(seen(attribution.question(own, AMBIGUOUS, () => new Set([2])))?.call, 'a2');
  clock.advance(BURST_MS);
  assert.equal(seen(attribution.question(own, AMBIGUOUS, () => new Set([2])))?.call, 'a1', 'the burst is over');
});

test('within a burst, a call started since that asked nothing takes the question (it is more likely its first)', () => {
  const { clock, attribution, own, alice, send, twoOwnCalls } = setup();
  twoOwnCalls();
  attribution.question(own, onStreamOf(2), none);
  clock.advance(10);
  send(alice, 'a3', own, 3);
  assert.equal(seen(attribution.question(own, AMBIGUOUS, () => new Set([2])))?.call, 'a3');
});

test('a log line is attributed by the same rules but does not start a burst', () => {
  const { clock, attribution, own, twoOwnCalls } = setup();
  twoOwnCalls();
  assert.equal(seen(attribution.notification(own, onStreamOf(2), none))?.call, 'a2');
  clock.advance(1);
  assert.equal(seen(attribution.question(own, AMBIGUOUS, none))?.call, 'a1');
});

test('a call that ended is no longer a candidate, and the burst falls back to the oldest', () => {
  const { clock, calls, attribution, own, alice, send } = setup();
  const first = send(alice, 'a1', own, 1);
  send(alice, 'a2', own, 2);
  send(alice, 'a3', own, 3);
  clock.advance(5);
  attribution.question(own, onStreamOf(1), none);
  calls.end(first, 'finished');
  clock.advance(1);
  assert.deepEqual(seen(attribution.question(own, AMBIGUOUS, none)), { host: 'alice', call: 'a2', pause: [2, 3] });
});
