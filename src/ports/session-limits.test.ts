/** @module The one owner of the host-session count: caps in total, per principal and per kind; the least recently used idle session makes room, else a refusal. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { LimitedSession, SessionKind, SessionSlot } from './session-limits.js';
import { SessionLimits } from './session-limits.js';

interface Probe extends LimitedSession {
  idle: boolean;
  evicted: boolean;
}

function session(principal: string, { idle = true, kind = 'streamable-http' as SessionKind } = {}): Probe {
  const probe: Probe = {
    kind,
    principal,
    idle,
    evicted: false,
    isIdle: () => probe.idle,
    evict: () => {
      probe.evicted = true;
    },
  };
  return probe;
}

function limits(caps: { maxSessions?: number; maxSessionsPerPrincipal?: number; maxStandIns?: number } = {}) {
  const evicted: SessionKind[] = [];
  const refused: SessionKind[] = [];
  const counted = new Map<SessionKind, number>();
  const owner = new SessionLimits(
    { maxSessions: caps.maxSessions ?? 10, maxSessionsPerPrincipal: caps.maxSessionsPerPrincipal ?? 10, maxStandIns: caps.maxStandIns ?? 10 },
    { evicted: (kind) => evicted.push(kind), refused: (kind) => refused.push(kind), counted: (kind, delta) => counted.set(kind, (counted.get(kind) ?? 0) + delta) },
  );
  const admitted = (probe: Probe): SessionSlot => {
    const slot = owner.admit(probe);
    assert.ok(slot, `${probe.principal} admitted`);
    return slot;
  };
  return { owner, evicted, refused, counted, admitted };
}

test('at the total cap the least recently used idle session is closed to make room', () => {
  const { owner, evicted, admitted } = limits({ maxSessions: 3 });
  const busyOldest = session('a', { idle: false });
  const used = session('b');
  const unused = session('c');
  admitted(busyOldest);
  const usedSlot = admitted(used);
  admitted(unused);
  usedSlot.touch();
  assert.equal(owner.open, 3);
  admitted(session('d'));
  assert.deepEqual([busyOldest.evicted, used.evicted, unused.evicted], [false, false, true]);
  assert.deepEqual(evicted, ['streamable-http']);
  assert.equal(owner.open, 3);
});

test('at a cap with no idle session the new one is refused and nothing is closed', () => {
  const { owner, refused, admitted } = limits({ maxSessions: 2 });
  const a = session('a', { idle: false });
  const b = session('b', { idle: false });
  admitted(a);
  admitted(b);
  assert.equal(owner.admit(session('c', { kind: 'sse' })), undefined);
  assert.deepEqual(refused, ['sse']);
  assert.equal(a.evicted || b.evicted, false);
  assert.equal(owner.open, 2);
});

test('a released slot frees its place, once; touching a released slot counts nothing', () => {
  const { owner, counted, admitted } = limits({ maxSessions: 1 });
  const slot = admitted(session('a', { idle: false }));
  assert.equal(owner.admit(session('b')), undefined);
  slot.release();
  slot.release();
  slot.touch();
  assert.equal(owner.open, 0);
  assert.equal(counted.get('streamable-http'), 0);
  admitted(session('b', { kind: 'sse' }));
  assert.equal(owner.open, 1);
  assert.deepEqual([...counted], [['streamable-http', 0], ['sse', 1]]);
});

test("the per-principal cap closes that principal's own idle session, never another principal's", () => {
  const { admitted } = limits({ maxSessionsPerPrincipal: 2 });
  const otherIdle = session('bob');
  const mineIdle = session('alice');
  const mineBusy = session('alice', { idle: false });
  for (const s of [otherIdle, mineIdle, mineBusy]) admitted(s);
  admitted(session('alice'));
  assert.deepEqual([otherIdle.evicted, mineIdle.evicted, mineBusy.evicted], [false, true, false]);

  const busy = limits({ maxSessionsPerPrincipal: 1 });
  busy.admitted(session('alice', { idle: false }));
  assert.equal(busy.owner.admit(session('alice')), undefined);
  busy.admitted(session('bob'));
});

test('stand-ins have a cap of their own, and count towards the total with every other kind', () => {
  const { owner, admitted } = limits({ maxSessions: 3, maxStandIns: 1 });
  const http = session('a');
  const standIn = session('b', { kind: 'stand-in' });
  admitted(http);
  admitted(standIn);
  // The stand-in cap: the idle stand-in makes room, not the older HTTP session.
  admitted(session('c', { kind: 'stand-in' }));
  assert.deepEqual([http.evicted, standIn.evicted], [false, true]);
  admitted(session('d', { kind: 'sse' }));
  // The total: three open; the least recently used idle one of any kind (the HTTP session) makes room.
  admitted(session('e', { kind: 'sse' }));
  assert.equal(http.evicted, true);
  assert.equal(owner.open, 3);
});
