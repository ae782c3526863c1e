/** @module Tests of the URL-elicitation registry: one delivery per (upstream, id), cleanup, and its bounds. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { UrlElicitationRegistry } from './url-elicitations.js';

interface Host {
  name: string;
}
const alice: Host = { name: 'alice' };
const bob: Host = { name: 'bob' };

test('a completion is taken once, by (upstream, id), with the stream it was asked on', () => {
  const registry = new UrlElicitationRegistry<Host>();
  registry.register('desk#1', 'e-1', alice, 7);
  registry.register('desk#2', 'e-1', bob);
  assert.deepEqual(registry.take('desk#1', 'e-1'), { host: alice, relatedRequestId: 7 });
  assert.equal(registry.take('desk#1', 'e-1'), undefined, 'completed: gone');
  assert.deepEqual(registry.take('desk#2', 'e-1'), { host: bob, relatedRequestId: undefined }, 'the same id on another upstream session is another entry');
  assert.equal(registry.take('desk#3', 'never-issued'), undefined);
  assert.equal(registry.size, 0);
});

test('keys cannot collide whatever the upstream key and id hold', () => {
  const registry = new UrlElicitationRegistry<Host>();
  registry.register('a', 'b\u0000c', alice);
  registry.register('a\u0000b', 'c', bob);
  assert.equal(registry.take('a', 'b\u0000c')?.host, alice);
  assert.equal(registry.take('a\u0000b', 'c')?.host, bob);
});

test('the latest host to receive an id wins it', () => {
  const registry = new UrlElicitationRegistry<Host>();
  registry.register('shared#1', 'e', alice);
  registry.register('shared#1', 'e', bob);
  assert.equal(registry.size, 1);
  assert.equal(registry.take('shared#1', 'e')?.host, bob);
});

test('a closed host session and an ended upstream session leave nothing behind', () => {
  const registry = new UrlElicitationRegistry<Host>();
  registry.register('shared#1', 'a1', alice);
  registry.register('shared#1', 'a2', alice);
  registry.register('shared#1', 'b1', bob);
  registry.register('own#2', 'b2', bob);
  registry.dropHost(alice);
  assert.equal(registry.size, 2);
  assert.equal(registry.take('shared#1', 'a1'), undefined);
  registry.dropUpstream('shared#1');
  assert.equal(registry.take('shared#1', 'b1'), undefined);
  assert.equal(registry.take('own#2', 'b2')?.host, bob);
  assert.equal(registry.size, 0);
});

test('bounded: per host, in total (oldest first), and by age', () => {
  let now = 0;
  const registry = new UrlElicitationRegistry<Host>({ perHost: 3, total: 5, ttlMs: 1000 }, () => now);
  for (let i = 1; i <= 4; i++) registry.register('u', `a${i}`, alice);
  assert.equal(registry.size, 3, 'alice holds at most 3');
  assert.equal(registry.take('u', 'a1'), undefined, "alice's oldest went first");
  for (let i = 1; i <= 3; i++) registry.register('u', `b${i}`, bob);
  assert.equal(registry.size, 5, 'at most 5 in all');
  assert.equal(registry.take('u', 'a2'), undefined, 'the oldest of all went first');
  assert.equal(registry.take('u', 'a3')?.host, alice);

  now = 500;
  registry.register('u', 'b1', bob); // registered again: young again
  now = 1200;
  assert.equal(registry.take('u', 'a4'), undefined, 'older than the ttl');
  assert.equal(registry.take('u', 'b2'), undefined, 'older than the ttl');
  assert.equal(registry.take('u', 'b1')?.host, bob, 're-registered at 500: still young at 1200');
  assert.equal(registry.size, 0);
});

test('a host cap of one and a total cap of zero do not loop', () => {
  const one = new UrlElicitationRegistry<Host>({ perHost: 1, total: 10, ttlMs: 1000 });
  one.register('u', 'x', alice);
  one.register('u', 'y', alice);
  assert.equal(one.size, 1);
  assert.equal(one.take('u', 'y')?.host, alice);
  const none = new UrlElicitationRegistry<Host>({ perHost: 10, total: 0, ttlMs: 1000 });
  none.register('u', 'x', alice);
  none.register('u', 'y', alice);
  assert.equal(none.size, 1);
});
