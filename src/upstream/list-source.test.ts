/** @module Tests of the list sessions of a per-session upstream: shared by key, questions on them refused, closed after their last host. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ManualClock } from '../core/clock.js';
import { captureLog } from '../core/testing/capture-log.js';
import { eventually } from '../core/testing/deadlines.js';
import { spec } from '../app/testing/gateway-doubles.js';
import { upstreamEnvelope } from '../protocol/request-envelope.js';
import { connectUpstream } from './connect.js';
import { ListSources } from './list-source.js';
import { UpstreamStatus } from './status.js';
import { fakeUpstreamFactory } from './testing/fake-upstream.js';

const INIT = { protocolVersion: '2025-11-25', capabilities: { roots: {} }, clientInfo: { name: 'host', version: '1' } };

function sources(lingerMs: number) {
  const up = fakeUpstreamFactory({ ok: () => ({ content: [] }) });
  const status = new UpstreamStatus(spec('desk'), { initialDelayMs: 10, maxDelayMs: 10 }, new ManualClock());
  const { logger } = captureLog();
  const lists = new ListSources({
    status,
    logger,
    lingerMs,
    open: (init, handlers) =>
      connectUpstream({
        spec: status.spec,
        open: up.open,
        handlers,
        logger,
        remembered: undefined,
        init,
        envelope: () => upstreamEnvelope({ hostCapabilities: {}, hostRevision: init.protocolVersion }),
      }),
  });
  return { up, lists };
}

test('hosts alike get one source; a question on the list session is refused as unattributable, a ping is answered', async () => {
  const { up, lists } = sources(60_000);
  const source = lists.sourceFor(INIT);
  assert.equal(lists.sourceFor({ ...INIT, clientInfo: { name: 'other', version: '2' } }), source, 'the client name is not part of the key');
  assert.notEqual(lists.sourceFor({ ...INIT, protocolVersion: '2025-06-18' }), source, 'the revision is');
  await source.session();
  const server = up.servers[0]!;
  const refused = await server.ask('elicitation/create', { mode: 'form', message: 'who?', requestedSchema: { type: 'object', properties: {} } });
  assert.equal('error' in refused && refused.error.code, -32603);
  assert.match('error' in refused ? refused.error.message : '', /list session/);
  const pong = await server.ask('ping', {});
  assert.deepEqual('result' in pong ? pong.result : undefined, {});
  await lists.close();
});

test('the list session closes a while after its last host stops listening, unless another attaches first', async () => {
  const { up, lists } = sources(30);
  const source = lists.sourceFor(INIT);
  const detachFirst = source.attach(() => undefined);
  const session = await source.session();
  const detachSecond = source.attach(() => undefined);
  detachFirst();
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal(session.closed, false, 'a host still listens');
  detachSecond();
  const again = source.attach(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal(session.closed, false, 'attached again within the linger');
  again();
  await eventually(() => session.closed, 'closed after the linger');
  assert.equal(lists.open, 0);
  assert.notEqual(lists.sourceFor(INIT), source, 'the next host gets a new source');
  assert.equal(up.servers.length, 1);
  await lists.close();
});
