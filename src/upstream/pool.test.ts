/** @module Tests of the upstream pool's rules: the startup probe, marking down with backoff, retries, whose failure counts, and the links it hands out. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { UpstreamSpec } from '../config/types.js';
import { ManualClock } from '../core/clock.js';
import { upstreamEnvelope } from '../protocol/request-envelope.js';
import type { Transport } from './transport/transport.js';
import { fakeUpstreamFactory } from './testing/fake-upstream.js';
import { spec } from '../app/testing/gateway-doubles.js';
import { eventually } from '../core/testing/deadlines.js';
import type { UpstreamPoolOptions } from './pool.js';
import { UpstreamPool } from './pool.js';

const INIT = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'host', version: '1' } };
const ENVELOPE = upstreamEnvelope({ hostCapabilities: {}, hostRevision: '2025-11-25', clientInfo: { name: 'host', version: '1' } });
const NO_HANDLERS = { onRequest() {}, onNotification() {}, onClose() {} };

type TestHost = { initParamsFor: () => typeof INIT; envelopeFor: () => typeof ENVELOPE; logLevel: string | undefined; listChanged(method: string): void; changes: string[] };
const host = (init: typeof INIT = INIT): TestHost => {
  const changes: string[] = [];
  return { initParamsFor: () => init, envelopeFor: () => ENVELOPE, logLevel: undefined, listChanged: (method) => changes.push(method), changes };
};

/** A transport whose process will not start. */
const unstartable = (): Transport => ({ start: () => Promise.reject(new Error('spawn ENOENT')), send: () => Promise.resolve(), close: () => Promise.resolve() });

/** A pool over `upstreams` with everything it reports recorded. */
function pool(upstreams: UpstreamSpec[], openTransport: UpstreamPoolOptions<TestHost>['openTransport'], extra: { retry?: { initialDelayMs: number; maxDelayMs: number }; clock?: ManualClock } = {}) {
  const seen = { states: [] as [string, boolean][], listChanged: [] as string[], warnings: [] as string[], adopted: [] as TestHost[] };
  const logger: UpstreamPoolOptions<TestHost>['logger'] = {
    log: (level, message) => {
      if (level === 'warn') seen.warnings.push(message);
    },
    child: () => logger,
  };
  const created = new UpstreamPool<TestHost>({
    upstreams,
    retry: extra.retry ?? { initialDelayMs: 50, maxDelayMs: 200 },
    openTransport,
    handlers: NO_HANDLERS,
    logger,
    clock: extra.clock ?? new ManualClock(),
    adopt: (_session, owner) => seen.adopted.push(owner),
    listChanged: (method) => seen.listChanged.push(method),
    metrics: { upstreamState: (name, up) => seen.states.push([name, up]) },
  });
  return { pool: created, seen };
}

test('a failed startup probe marks the upstream down and retries it; once it is up, the hosts learn the lists it offers changed', async () => {
  const up = fakeUpstreamFactory({ ok: () => ({ content: [] }) });
  let attempts = 0;
  const { pool: upstreams, seen } = pool([spec('flaky')], () => (++attempts <= 2 ? unstartable() : up.open()));
  await upstreams.ready;
  assert.deepEqual(upstreams.health().upstreams.map((report) => [report.name, report.state]), [['flaky', 'down']]);
  assert.equal(upstreams.health().ready, true, 'tried once, even though down');
  assert.match(upstreams.report('flaky')?.error ?? '', /ENOENT/);
  assert.deepEqual(seen.listChanged, [], 'nothing arrived yet');
  await eventually(() => upstreams.report('flaky')?.state === 'up', 'the retries bring the upstream up');
  assert.equal(attempts, 3);
  assert.deepEqual(seen.states, [['flaky', false], ['flaky', false], ['flaky', true]]);
  assert.match(seen.warnings[0] ?? '', /upstream 'flaky' is down: .*ENOENT.*; retrying in 50 ms/);
  assert.match(seen.warnings[1] ?? '', /retrying in 100 ms/, 'the backoff doubles');
  assert.deepEqual(seen.listChanged, ['notifications/tools/list_changed'], 'only the lists it offers (tools, not logging)');
  assert.deepEqual(upstreams.toolNames('flaky'), ['ok'], 'the probe lists its tools (composites are checked against them)');
  await upstreams.close();
});

test('an upstream is announced once when it arrives: a host session opened while it is up announces nothing again', async () => {
  const up = fakeUpstreamFactory({});
  const { pool: upstreams, seen } = pool([spec('steady')], up.open);
  await upstreams.ready;
  assert.equal(upstreams.report('steady')?.state, 'up');
  assert.deepEqual(seen.listChanged, ['notifications/tools/list_changed'], 'hosts answered before the first probe ended learn of its lists');
  const [link] = upstreams.linksFor(host());
  const session = await link?.get();
  assert.deepEqual(seen.listChanged, ['notifications/tools/list_changed']);
  assert.deepEqual(seen.states, [['steady', true], ['steady', true]]);
  await session?.close();
  await upstreams.close();
});

test('while an upstream backs off its links refuse without opening a transport; after the backoff a host link opens, is adopted, and the upstream is up', async () => {
  const clock = new ManualClock();
  const up = fakeUpstreamFactory({});
  let opened = 0;
  let broken = true;
  const { pool: upstreams, seen } = pool(
    [spec('desk')],
    () => {
      opened += 1;
      return broken ? unstartable() : up.open();
    },
    { retry: { initialDelayMs: 60_000, maxDelayMs: 60_000 }, clock },
  );
  await upstreams.ready;
  assert.equal(opened, 1);
  const owner = host();
  const [link] = upstreams.linksFor(owner);
  assert.ok(link);
  await assert.rejects(link.get(), (error: Error & { code?: string }) => error.code === 'GW_ERR_UPSTREAM_UNAVAILABLE' && /next try in 60 s/.test(error.message));
  assert.equal(opened, 1, 'no transport opened during the backoff');
  broken = false;
  clock.advance(60_000);
  const session = await link.get();
  assert.equal(opened, 2);
  assert.deepEqual(seen.adopted, [owner], 'the session belongs to the host it was opened for');
  assert.equal(upstreams.report('desk')?.state, 'up');
  assert.deepEqual(seen.listChanged, ['notifications/tools/list_changed'], 'the hosts learn the upstream arrived');
  assert.deepEqual(up.servers[0]?.initializeParams, INIT, "a per-session upstream gets the host's own initialize params");
  await session.close();
  await upstreams.close();
});

test("what one host sent does not put the upstream into backoff for everyone; the upstream's own failure does", async () => {
  const up = fakeUpstreamFactory({}, { refuseInitialize: (params) => ((params?.clientInfo as { name?: unknown } | undefined)?.name === 'host' ? { code: -32602, message: 'bad params' } : undefined) });
  let broken = false;
  const { pool: upstreams, seen } = pool([spec('picky')], () => (broken ? unstartable() : up.open()), { retry: { initialDelayMs: 60_000, maxDelayMs: 60_000 } });
  await upstreams.ready;
  assert.equal(upstreams.report('picky')?.state, 'up', 'the probe is not refused');
  const [link] = upstreams.linksFor(host());
  await assert.rejects(link?.get() ?? Promise.resolve(), /bad params/);
  assert.equal(upstreams.report('picky')?.state, 'up', "a refusal of the host's params is the host's");
  broken = true;
  const [other] = upstreams.linksFor(host());
  await assert.rejects(other?.get() ?? Promise.resolve(), (error: Error & { code?: string }) => error.code === 'GW_ERR_UPSTREAM_UNAVAILABLE' && /ENOENT/.test(error.message));
  assert.equal(upstreams.report('picky')?.state, 'down');
  assert.deepEqual(seen.states, [['picky', true], ['picky', false]]);
  await upstreams.close();
});

test('a shared upstream is one link for every host, probed through it; a failed connect is marked down once', async () => {
  const up = fakeUpstreamFactory({ a: () => ({ content: [] }), b: () => ({ content: [] }) });
  const { pool: upstreams } = pool([spec('team', 'shared')], up.open);
  await upstreams.ready;
  const [first] = upstreams.linksFor(host());
  const [second] = upstreams.linksFor(host());
  assert.ok(first);
  assert.equal(first, second);
  assert.deepEqual(upstreams.toolNames('team'), ['a', 'b'], 'the probe lists the tools on the shared session');
  assert.equal(up.servers.length, 1, 'the probe opened the one shared session');
  assert.deepEqual(up.servers[0]?.initializeParams?.clientInfo, { name: 'switchboard', version: '0.1.0' });
  await upstreams.close();

  const down = pool([spec('team', 'shared')], unstartable, { retry: { initialDelayMs: 60_000, maxDelayMs: 60_000 } });
  await down.pool.ready;
  assert.equal(down.pool.report('team')?.state, 'down');
  assert.deepEqual(down.seen.states, [['team', false]], 'the connect marks it down and the probe does not again');
  assert.equal(down.seen.warnings.length, 1);
  await down.pool.close();
});

test('after stopProbing no retry runs', async () => {
  let attempts = 0;
  const { pool: upstreams } = pool([spec('gone')], () => {
    attempts += 1;
    return unstartable();
  }, { retry: { initialDelayMs: 20, maxDelayMs: 20 } });
  await upstreams.ready;
  upstreams.stopProbing();
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(attempts, 1);
  await upstreams.close();
});

test('per-session upstream: hosts that only list share one list session per revision and capabilities; a call opens the host\'s own', async () => {
  const up = fakeUpstreamFactory({ ok: () => ({ content: [] }) });
  const { pool: upstreams, seen } = pool([spec('desk')], up.open);
  await upstreams.ready;
  const probes = up.servers.length;
  const eliciting = { ...INIT, capabilities: { elicitation: { form: {} } } };
  const hosts = [host(), host(), host(eliciting)];
  const links = hosts.map((owner) => upstreams.linksFor(owner)[0]!);
  const lists = await Promise.all(links.map((link) => link.list('tools')));
  assert.deepEqual(lists.map((tools) => tools.map((tool) => tool.name)), [['ok'], ['ok'], ['ok']]);
  const opened = up.servers.slice(probes);
  assert.equal(opened.length, 2, 'one list session for the two alike hosts, one for the host declaring elicitation');
  assert.deepEqual(opened.map((server) => server.initializeParams?.capabilities), [{}, { elicitation: { form: {} } }]);
  assert.deepEqual(opened[0]?.initializeParams?.clientInfo, { name: 'switchboard', version: '0.1.0' }, 'the list session lists in the gateway\'s name');
  assert.equal(opened.flatMap((server) => server.received).filter((message) => 'method' in message && message.method === 'tools/list').length, 2, 'each list session listed once');
  assert.equal(upstreams.listSessions, 2);
  assert.deepEqual(seen.adopted, [], 'no host owns a list session');
  assert.equal(links[0]?.current(), undefined, 'listing opened nothing of the host\'s own');

  const own = await links[0]!.forCall();
  assert.deepEqual(seen.adopted, [hosts[0]], 'a call opens the host\'s own session');
  own.release();
  await Promise.all(links.map((link) => link.close()));
  await upstreams.close();
});

test('per-session upstream: a list change on the list session drops its cached list and reaches each host that listed there', async () => {
  const up = fakeUpstreamFactory({ ok: () => ({ content: [] }) });
  const { pool: upstreams } = pool([spec('desk')], up.open);
  await upstreams.ready;
  const probes = up.servers.length;
  const [listed, silent] = [host(), host()];
  const link = upstreams.linksFor(listed)[0]!;
  upstreams.linksFor(silent);
  await link.list('tools');
  const listSession = up.servers[probes]!;
  await listSession.notify('notifications/tools/list_changed');
  await eventually(() => listed.changes.length === 1, 'the host that listed hears of the change');
  assert.deepEqual(listed.changes, ['notifications/tools/list_changed']);
  assert.deepEqual(silent.changes, [], 'a host that never listed there is not told');
  await link.list('tools');
  const lists = listSession.received.filter((message) => 'method' in message && message.method === 'tools/list');
  assert.equal(lists.length, 2, 'the list is asked again after the change');
  await link.close();
  await upstreams.close();
});

test('per-session upstream with `lists: per-session`: a host lists on its own session', async () => {
  const up = fakeUpstreamFactory({ ok: () => ({ content: [] }) });
  const { pool: upstreams, seen } = pool([spec('desk', 'per-session', { lists: 'per-session' })], up.open);
  await upstreams.ready;
  const owner = host();
  const [link] = upstreams.linksFor(owner);
  assert.deepEqual((await link!.list('tools')).map((tool) => tool.name), ['ok']);
  assert.deepEqual(seen.adopted, [owner], 'listing opened the host\'s own session');
  assert.equal(upstreams.listSessions, 0);
  await link!.close();
  await upstreams.close();
});
