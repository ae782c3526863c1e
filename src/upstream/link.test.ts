import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { UpstreamSpec } from '../config/types.js';
import { UpstreamLink } from './link.js';
import type { UpstreamSession } from './session.js';
import { UpstreamStatus } from './status.js';

/** A session as far as the link looks at it: whether it is closed, and closing it. */
function fakeSession(): UpstreamSession & { closed: boolean } {
  const session = { closed: false, close: () => ((session.closed = true), Promise.resolve()) };
  return session as unknown as UpstreamSession & { closed: boolean };
}

function setup(options: { oneCallPerSession?: boolean; extraLingerMs?: number }) {
  const opened: (UpstreamSession & { closed: boolean })[] = [];
  const status = new UpstreamStatus({ name: 'desk', kind: 'stdio' } as UpstreamSpec, { initialDelayMs: 10, maxDelayMs: 10 });
  const link = new UpstreamLink(
    status,
    async () => {
      const session = fakeSession();
      opened.push(session);
      return session;
    },
    options,
  );
  return { link, opened };
}

test('without oneCallPerSession every call shares the one session', async () => {
  const { link, opened } = setup({});
  const [a, b] = await Promise.all([link.forCall(), link.forCall()]);
  assert.equal(a.session, b.session);
  assert.equal(opened.length, 1);
});

test('with oneCallPerSession, calls in flight at once hold sessions apart; a released one is taken again', async () => {
  const { link, opened } = setup({ oneCallPerSession: true, extraLingerMs: 60_000 });
  const [a, b, c] = await Promise.all([link.forCall(), link.forCall(), link.forCall()]);
  assert.equal(new Set([a.session, b.session, c.session]).size, 3, 'three calls, three sessions');
  b.release();
  const d = await link.forCall();
  assert.equal(d.session, b.session, 'the session no call holds is taken before a new one is opened');
  assert.equal(opened.length, 3);
  for (const held of [a, c, d]) held.release();
  await link.close();
  assert.ok(opened.every((session) => session.closed), 'closing the link closes every session');
});

test('an extra session no call holds closes after the linger; the first one stays', async () => {
  const { link, opened } = setup({ oneCallPerSession: true, extraLingerMs: 20 });
  const [a, b] = await Promise.all([link.forCall(), link.forCall()]);
  a.release();
  b.release();
  assert.equal(link.openSessions, 2);
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal(link.openSessions, 1, 'the extra session closed once unused for the linger');
  assert.deepEqual(opened.map((session) => session.closed), [false, true]);
  const again = await link.forCall();
  assert.equal(again.session, opened[0], 'the first session serves the next call');
  again.release();
  await link.close();
});

test('an extra session taken again before its linger ends stays open', async () => {
  const { link, opened } = setup({ oneCallPerSession: true, extraLingerMs: 30 });
  const [a, b] = await Promise.all([link.forCall(), link.forCall()]);
  b.release();
  const c = await link.forCall();
  assert.equal(c.session, b.session);
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal(opened[1]?.closed, false, 'held again: not closed by the earlier linger');
  a.release();
  c.release();
  await link.close();
});
