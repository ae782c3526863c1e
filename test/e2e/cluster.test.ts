/**
 * @module e2e/cluster.test (issue 13): three `switchboard serve` processes on one PostgreSQL schema behind haproxy
 * (round robin, no stickiness), incident desk upstreams, real hosts: a legacy session whose POSTs and answers land on
 * every instance, a 2026-07-28 host whose retries land on another instance than the one holding the parked call, 50
 * sessions whose questions are answered over another instance's REST API, two operators racing on two instances,
 * `kill -9` of an instance with questions open, and a rolling restart under load.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';

import { CLUSTER_TOKEN, clusterSkipReason, startCluster, type RunningCluster } from './harness/cluster.js';
import { ModernHttpHost } from './harness/modern-host.js';
import { OperatorApi } from './harness/operator-api.js';
import { RawHost } from './harness/raw-host.js';
import { toolText } from './harness/tool-results.js';
import { incidentDeskStdio, labStdio } from './harness/upstreams.js';

const REVISION = '2025-06-18';
const SERVICES = ['payments-api', 'search-indexer', 'auth-gateway', 'ledger-db'] as const;
const approve = (ticket: string) => ({ action: 'accept', content: { confirm: true, ticket } });

/** Waits (bounded) until `check` holds. */
async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('several instances behind a balancer', { skip: clusterSkipReason, timeout: 240_000 }, () => {
  let cluster: RunningCluster;
  before(async () => {
    cluster = await startCluster({ upstreams: { desk: incidentDeskStdio(), lab: labStdio({ sharing: 'shared' }) } });
  });
  after(async () => {
    await cluster?.stop();
  });

  test('a legacy session opened on one instance works from every other: its POSTs, its answer and its stream', async () => {
    const [a, b, c] = cluster.members as [typeof cluster.members[0], typeof cluster.members[0], typeof cluster.members[0]];
    const host = await RawHost.connect(a.url, { protocolVersion: REVISION, capabilities: { elicitation: {} } });
    // The call goes in on B (forwarded to A, its stream relayed back), the answer on C.
    const call = await host.withUrl(b.url).callTool(2, 'restart_service', { service: 'payments-api' });
    const question = await call.until((message) => 'method' in message && message.method === 'elicitation/create');
    const answered = await host.withUrl(c.url).answer(question.id, approve('CHG-7001'));
    assert.equal(answered.status, 202, answered.text);
    const [result] = await call.rest();
    assert.equal(toolText(result), 'RESTARTED payments-api under CHG-7001', cluster.logs());
    // The same through the balancer, request after request.
    const viaBalancer = host.withUrl(cluster.url);
    const again = await viaBalancer.callTool(3, 'restart_service', { service: 'search-indexer' });
    const asked = await again.until((message) => 'method' in message && message.method === 'elicitation/create');
    assert.equal((await viaBalancer.answer(asked.id, approve('CHG-7002'))).status, 202);
    assert.equal(toolText((await again.rest())[0]), 'RESTARTED search-indexer under CHG-7002');
    const listed = await viaBalancer.call(4, 'tools/list');
    assert.ok(Array.isArray((listed.result as { tools?: unknown[] } | undefined)?.tools));
    await host.withUrl(c.url).close();
    // Deleted through C: gone on A too.
    const afterDelete = await host.withUrl(a.url).postText(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'ping' }));
    assert.equal(afterDelete.status, 404);
  });

  test('a call stream relayed through an instance that breaks off is resumed on another (GET with Last-Event-ID): the result comes from the owner', async () => {
    const [a, b, c] = cluster.members as [typeof cluster.members[0], typeof cluster.members[0], typeof cluster.members[0]];
    const host = await RawHost.connect(a.url, { protocolVersion: '2025-11-25', capabilities: { elicitation: {} } });
    try {
      const abort = new AbortController();
      const call = await fetch(b.url, {
        method: 'POST',
        headers: host.headers(),
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'restart_service', arguments: { service: 'search-indexer' } } }),
        signal: abort.signal,
      });
      const events = sseEvents(call);
      const asked = JSON.parse(await events.next('message')) as { id: string; method: string };
      assert.equal(asked.method, 'elicitation/create');
      const resumeFrom = events.lastId();
      assert.ok(resumeFrom, 'the question came with an event id');
      abort.abort(); // the relayed stream breaks off
      assert.equal((await host.withUrl(c.url).answer(asked.id, approve('CHG-RESUMED'))).status, 202);
      const stop = new AbortController();
      const resume = () => fetch(c.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': host.sessionId, 'mcp-protocol-version': '2025-11-25', 'last-event-id': resumeFrom }, signal: stop.signal });
      // The owner answers 409 while it has not yet seen the relayed stream end (the break travels B, then A); a host
      // retries then, as this one does, for a bounded while.
      let resumed = await resume();
      for (let tries = 0; resumed.status === 409 && tries < 40; tries += 1) {
        await resumed.body?.cancel();
        await new Promise((resolve) => setTimeout(resolve, 50));
        resumed = await resume();
      }
      assert.equal(resumed.status, 200);
      const result = JSON.parse(await sseEvents(resumed).next('message')) as { id: number };
      stop.abort();
      assert.equal(result.id, 2);
      assert.equal(toolText(result as never), 'RESTARTED search-indexer under CHG-RESUMED');
    } finally {
      await host.close();
    }
  });

  test('an /sse session opened on one instance takes its /messages posts on the others; its answers flow on its stream', async () => {
    const [a, b, c] = cluster.members as [typeof cluster.members[0], typeof cluster.members[0], typeof cluster.members[0]];
    const abort = new AbortController();
    const stream = await fetch(`${a.base}/sse`, { headers: { accept: 'text/event-stream' }, signal: abort.signal });
    assert.equal(stream.status, 200);
    const events = sseEvents(stream);
    try {
      const endpoint = await events.next('endpoint');
      assert.match(endpoint, /^\/messages\?sessionId=/);
      const post = (where: (typeof cluster.members)[0], message: unknown) =>
        fetch(`${where.base}${endpoint}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) });
      assert.equal((await post(b, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: REVISION, capabilities: { elicitation: {} }, clientInfo: { name: 'sse-host', version: '1' } } })).status, 202);
      assert.ok(JSON.parse(await events.next('message')).result, 'initialize answered on the stream');
      assert.equal((await post(c, { jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
      assert.equal((await post(b, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'restart_service', arguments: { service: 'auth-gateway' } } })).status, 202);
      const asked = JSON.parse(await events.next('message')) as { id: string; method: string };
      assert.equal(asked.method, 'elicitation/create');
      assert.equal((await post(c, { jsonrpc: '2.0', id: asked.id, result: approve('CHG-SSE') })).status, 202);
      const done = JSON.parse(await events.next('message')) as { id: number; result: unknown };
      assert.equal(toolText(done as never), 'RESTARTED auth-gateway under CHG-SSE', cluster.logs());
    } finally {
      abort.abort();
    }
  });

  test('a 2026-07-28 host completes a parked call whose retry lands on another instance, on each instance in turn', async () => {
    const authorization = `Bearer modern-${randomUUID()}`;
    const members = cluster.members;
    for (let index = 0; index < members.length; index += 1) {
      const first = members[index] as (typeof members)[0];
      const next = members[(index + 1) % members.length] as (typeof members)[0];
      const starter = new ModernHttpHost(first.url);
      const service = SERVICES[index % SERVICES.length] as string;
      const message = starter.message('tools/call', { name: 'restart_service', arguments: { service } });
      const parked = await starter.post(message, { authorization });
      const round = parked.messages.find((entry) => entry.id === message.id)?.result as Record<string, unknown> | undefined;
      assert.equal(round?.resultType, 'input_required', starter.transcript());
      const [key] = Object.keys(round?.inputRequests as object);
      const retrier = new ModernHttpHost(next.url);
      const retry = retrier.message('tools/call', {
        name: 'restart_service',
        arguments: { service },
        requestState: round?.requestState,
        inputResponses: { [key as string]: approve(`CHG-80${index}`) },
      });
      const done = await retrier.post(retry, { authorization });
      const response = done.messages.find((entry) => entry.id === retry.id);
      assert.equal(toolText(response), `RESTARTED ${service} under CHG-80${index}`, `${retrier.transcript()}\n${cluster.logs()}`);
    }
  });

  test('a 2026-07-28 host completes one parked call of three rounds whose requests land on every instance in turn', async () => {
    const authorization = `Bearer rounds-${randomUUID()}`;
    const hosts = cluster.members.map((member) => new ModernHttpHost(member.url));
    const args = { message: 'Which?', times: 3 };
    let params: Record<string, unknown> = { name: 'ask', arguments: args };
    const landed = new Set<string>();
    for (let round = 1; ; round += 1) {
      // The first request on gw-1, the retries on gw-2, gw-3, then gw-1 again.
      const host = hosts[(round - 1) % hosts.length] as ModernHttpHost;
      const message = host.message('tools/call', params);
      const answered = await host.post(message, { authorization });
      const result = answered.messages.find((entry) => entry.id === message.id)?.result as Record<string, unknown> | undefined;
      assert.ok(result, host.transcript());
      if (result.resultType === 'complete') {
        assert.equal(round, 4, 'three rounds, then the result');
        assert.equal(toolText({ result } as never), 'accept: one; accept: two; accept: three', host.transcript());
        break;
      }
      assert.equal(result.resultType, 'input_required', host.transcript());
      const state = String(result.requestState);
      landed.add(JSON.parse(Buffer.from(state.split('.')[1] as string, 'base64url').toString('utf8')).o as string);
      const [key] = Object.keys(result.inputRequests as object);
      params = { name: 'ask', arguments: args, requestState: state, inputResponses: { [key as string]: { action: 'accept', content: { answer: ['one', 'two', 'three'][round - 1] } } } };
    }
    // Every round's handle names the one instance holding the call, wherever the retries landed.
    assert.equal(landed.size, 1, [...landed].join(', '));
  });

  test('a forwarded-looking request from a host is refused: the cluster link is not served to hosts', async () => {
    const member = cluster.members[0] as (typeof cluster.members)[0];
    const response = await fetch(member.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'switchboard-cluster': `v1.Z3ctOQ.${Date.now()}.${'A'.repeat(43)}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    assert.equal(response.status, 401);
  });

  test('50 sessions through the balancer, each question answered over the REST API of an instance that does not hold its call', async () => {
    const hosts = await Promise.all(Array.from({ length: 50 }, () => RawHost.connect(cluster.url, { protocolVersion: REVISION, capabilities: {} })));
    try {
      // No elicitation capability: every question goes to an operator.
      const calls = await Promise.all(hosts.map((host, index) => host.callTool(10, 'restart_service', { service: SERVICES[index % SERVICES.length] })));
      const apis = cluster.members.map((member) => new OperatorApi(member.url, CLUSTER_TOKEN, `op-${member.id}`));
      const first = apis[0] as OperatorApi;
      const sessions = new Set(hosts.map((host) => host.sessionId));
      let open: Awaited<ReturnType<OperatorApi['list']>> = [];
      await until('all 50 questions are open', async () => {
        const hostOf = hostSessions(cluster.logs());
        open = (await first.list('state=delivered&limit=200')).filter((view) => sessions.has(hostOf.get(view.hostSessionId ?? '') ?? ''));
        return open.length >= 50;
      });
      const hostOf = hostSessions(cluster.logs());
      const answered = await Promise.all(
        open.map(async (view) => {
          // The question names the gateway's host session; the instance's log, its Mcp-Session-Id; that, the instance holding the call.
          const sessionId = hostOf.get(view.hostSessionId ?? '') as string;
          const index = hosts.findIndex((host) => host.sessionId === sessionId);
          const owner = ownerOfSession(sessionId);
          const other = cluster.members.findIndex((member) => member.id !== owner);
          const reply = await (apis[other] as OperatorApi).send('POST', `/api/questions/${view.id}/answer`, { body: approve(`T-${index}`) });
          return { reply, owner, other: cluster.members[other]?.id };
        }),
      );
      const owners = new Set(answered.map(({ owner }) => owner));
      assert.equal(owners.size, 3, `the balancer spread the sessions over the three instances: ${[...owners].join(', ')}`);
      for (const { reply, owner, other } of answered) assert.equal(reply.status, 200, `answered on ${other} for ${owner}: ${reply.text}`);
      const results = await Promise.all(calls.map((call) => call.rest()));
      results.forEach((messages, index) => assert.equal(toolText(messages.at(-1)), `RESTARTED ${SERVICES[index % SERVICES.length]} under T-${index}`, cluster.logs()));
    } finally {
      await Promise.all(hosts.map((host) => host.close()));
    }
  });

  test('two operators answering one question on two instances: exactly one wins, the other gets 409', async () => {
    const host = await RawHost.connect(cluster.url, { protocolVersion: REVISION, capabilities: {} });
    try {
      const call = await host.callTool(2, 'restart_service', { service: 'ledger-db' });
      const apis = cluster.members.map((member) => new OperatorApi(member.url, CLUSTER_TOKEN, `op-${member.id}`));
      const view = await questionOf(apis[0] as OperatorApi, cluster, host.sessionId);
      const [one, two] = await Promise.all([
        (apis[1] as OperatorApi).send('POST', `/api/questions/${view.id}/answer`, { body: approve('CHG-ONE') }),
        (apis[2] as OperatorApi).send('POST', `/api/questions/${view.id}/answer`, { body: approve('CHG-TWO') }),
      ]);
      assert.deepEqual([one.status, two.status].sort(), [200, 409], `${one.text}\n${two.text}`);
      const winner = one.status === 200 ? 'CHG-ONE' : 'CHG-TWO';
      assert.equal(toolText((await call.rest()).at(-1)), `RESTARTED ledger-db under ${winner}`);
    } finally {
      await host.close();
    }
  });

  test('an answer with a secret field given on another instance travels the cluster link to the one holding the call; the store keeps "[redacted]"', async () => {
    const [a, b] = cluster.members as [typeof cluster.members[0], typeof cluster.members[0]];
    const host = await RawHost.connect(a.url, { protocolVersion: REVISION });
    try {
      const call = await host.callTool(2, 'ask', { message: 'Vault password?', secret: true });
      const onB = new OperatorApi(b.url, CLUSTER_TOKEN, 'op-b');
      const question = await questionOf(onB, cluster, host.sessionId);
      const secret = 'typed-on-B-Pw-91x';
      const reply = await onB.send('POST', `/api/questions/${question.id}/answer`, { body: { action: 'accept', content: { answer: secret } } });
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.text.includes(secret), false, reply.text);
      assert.equal(toolText((await call.rest()).find((message) => message.id === 2)), `accept: ${secret}`, 'the upstream got what the operator typed on B');
      const detail = await onB.detail(question.id);
      assert.deepEqual(detail.question.answer, { action: 'accept', content: { answer: '[redacted]' } });
      assert.equal(detail.question.answeredBy?.kind === 'operator' ? detail.question.answeredBy.name : undefined, 'op-b');
      assert.equal(JSON.stringify(detail).includes(secret), false);
    } finally {
      await host.close();
    }
  });

  test('kill -9 of an instance with questions open: its questions abandoned within deadAfter, audit intact; its sessions 404, its handles gone; the others serve on', async () => {
    const victim = cluster.members[2] as (typeof cluster.members)[0];
    const survivors = cluster.members.filter((member) => member !== victim);
    const api = new OperatorApi((survivors[0] as (typeof survivors)[0]).url, CLUSTER_TOKEN, 'op-survivor');
    // Two sessions held by the victim and one by a survivor, each with a question open at an operator.
    const onVictim = [await RawHost.connect(victim.url, { protocolVersion: REVISION }), await RawHost.connect(victim.url, { protocolVersion: REVISION })];
    const onSurvivor = await RawHost.connect((survivors[1] as (typeof survivors)[0]).url, { protocolVersion: REVISION });
    const victimCalls = await Promise.all(onVictim.map((host, index) => host.withUrl(cluster.url).callTool(2, 'restart_service', { service: SERVICES[index] })));
    // Straight to its owner: a stream relayed through the victim would break with it (the call itself goes on).
    const survivorCall = await onSurvivor.callTool(2, 'restart_service', { service: 'ledger-db' });
    const victimQuestions = await Promise.all(onVictim.map((host) => questionOf(api, cluster, host.sessionId)));
    const survivorQuestion = await questionOf(api, cluster, onSurvivor.sessionId);
    // A 2026-07-28 call parked on the victim.
    const authorization = `Bearer parked-${randomUUID()}`;
    const starter = new ModernHttpHost(victim.url);
    const first = starter.message('tools/call', { name: 'restart_service', arguments: { service: 'payments-api' } });
    const round = (await starter.post(first, { authorization })).messages.find((entry) => entry.id === first.id)?.result as Record<string, unknown>;
    assert.equal(round.resultType, 'input_required', starter.transcript());

    await victim.kill();
    const killedAt = Date.now();
    // Within deadAfter (3 s) and a sweep (a third of it) after that, a survivor has abandoned the victim's questions.
    await until('the victim\'s questions are abandoned', async () => {
      const states = await Promise.all(victimQuestions.map(async (view) => (await api.detail(view.id)).question.state));
      return states.every((state) => state === 'abandoned');
    }, 10_000);
    const tookMs = Date.now() - killedAt;
    assert.ok(tookMs < 3000 + 1000 + 2000, `abandoned ${tookMs} ms after the kill`);
    for (const view of victimQuestions) {
      const detail = await api.detail(view.id);
      const actions = detail.audit.map((line) => line.action);
      assert.equal(actions.at(-1), 'abandoned', JSON.stringify(detail.audit));
      assert.ok(actions.includes('created'), 'the audit keeps its first line');
      assert.match(JSON.stringify(detail.audit.at(-1)), /gateway instance gw-3 died/);
    }
    // The victim's hosts learn their session is gone (404: they initialize again), through the balancer or not.
    for (const host of onVictim) {
      const next = await host.withUrl(cluster.url).postText(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }));
      assert.equal(next.status, 404, next.text);
    }
    // Its parked call's record is gone too (as a survivor's /healthz shows an operator).
    const health = (await (await fetch(`${(survivors[0] as (typeof survivors)[0]).base}/healthz`, { headers: { authorization: `Bearer ${CLUSTER_TOKEN}` } })).json()) as { parkedCalls?: { parked: number; gone: number } };
    assert.equal(health.parkedCalls?.parked, 0, JSON.stringify(health));
    assert.ok((health.parkedCalls?.gone ?? 0) >= 1, JSON.stringify(health));
    // The parked handle it issued is refused cleanly as gone, on any instance.
    const [key] = Object.keys(round.inputRequests as object);
    const retrier = new ModernHttpHost(cluster.url);
    const retry = retrier.message('tools/call', { name: 'restart_service', arguments: { service: 'payments-api' }, requestState: round.requestState, inputResponses: { [key as string]: approve('CHG-LATE') } });
    const refused = (await retrier.post(retry, { authorization })).messages.find((entry) => entry.id === retry.id);
    assert.equal((refused?.error?.data as { failure?: string } | undefined)?.failure, 'gone', retrier.transcript());
    // The survivors serve on: the survivor's question is answered, its call completes.
    assert.equal((await api.send('POST', `/api/questions/${survivorQuestion.id}/answer`, { body: approve('CHG-ALIVE') })).status, 200);
    assert.equal(toolText((await survivorCall.rest()).at(-1)), 'RESTARTED ledger-db under CHG-ALIVE');
    // The victim's calls were cut with it: each stream ends (or breaks off), none hangs.
    for (const call of victimCalls) {
      const outcome = await call.rest(5_000).then(
        () => 'ended',
        (error: unknown) => String(error),
      );
      assert.doesNotMatch(outcome, /no SSE message within/, 'the stream of a call on the dead instance does not hang');
      await call.close().catch(() => undefined);
    }
    // Restarted under its id, it brings nothing back: the questions stay abandoned, the sessions unknown.
    await victim.start();
    for (const view of victimQuestions) assert.equal((await api.detail(view.id)).question.state, 'abandoned');
    const back = await (onVictim[0] as RawHost).withUrl(victim.url).postText(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ping' }));
    assert.equal(back.status, 404);
    await onSurvivor.close();
  });

  test('a rolling restart of all three under steady load loses no answered question; a draining instance hands new sessions on', async () => {
    const outcome = { answered: 0, completed: 0, lost: [] as string[] };
    let stop = false;
    const worker = async (n: number): Promise<void> => {
      let host: RawHost | undefined;
      for (let round = 1; !stop; round += 1) {
        const service = SERVICES[(n + round) % SERVICES.length] as string;
        const ticket = `R-${n}-${round}`;
        let answered = false;
        try {
          host ??= await RawHost.connect(cluster.url, { protocolVersion: REVISION, capabilities: { elicitation: {} } });
          const call = await host.callTool(round, 'restart_service', { service });
          const question = await call.until((message) => 'method' in message && message.method === 'elicitation/create');
          const reply = await host.answer(question.id, approve(ticket));
          if (reply.status !== 202) throw new Error(`answer refused: ${reply.status}`);
          answered = true;
          outcome.answered += 1;
          const text = toolText((await call.rest()).at(-1));
          if (text === `RESTARTED ${service} under ${ticket}`) outcome.completed += 1;
          else outcome.lost.push(`${ticket}: ${text}`);
        } catch (error) {
          // Before its answer was taken, a session that went away is only started again; after, the answer is lost.
          if (answered) outcome.lost.push(`${ticket}: ${error instanceof Error ? error.message : String(error)}`);
          host = undefined;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    };
    const workers = Array.from({ length: 6 }, (_, n) => worker(n));
    try {
      for (const member of cluster.members) {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        // A call of its own held open across the signal: the instance drains until it ends.
        const holder = await RawHost.connect(member.url, { protocolVersion: REVISION, capabilities: { elicitation: {} } });
        const held = await holder.callTool(1, 'restart_service', { service: 'ledger-db' });
        const heldQuestion = await held.until((message) => 'method' in message && message.method === 'elicitation/create');
        const exited = member.terminate();
        await until(`${member.id} says it is draining`, async () => (await fetch(`${member.base}/healthz`).catch(() => undefined))?.status === 503, 5_000);
        // While it drains, a host that reaches it directly is handed to another instance.
        const handed = await RawHost.connect(member.url, { protocolVersion: REVISION });
        assert.notEqual(ownerOfSession(handed.sessionId), member.id, 'a new session goes to another instance');
        await handed.close();
        // Its own call finishes; then it exits by itself.
        assert.equal((await holder.answer(heldQuestion.id, approve('CHG-HELD'))).status, 202);
        assert.equal(toolText((await held.rest()).at(-1)), 'RESTARTED ledger-db under CHG-HELD');
        assert.equal(await exited, 0, `${member.id} exits by itself once drained\n${member.process.output()}`);
        await member.start();
        await until(`${member.id} is back in the balancer`, async () => (await fetch(`${member.base}/healthz`)).status === 200);
      }
      await new Promise((resolve) => setTimeout(resolve, 1500));
    } finally {
      stop = true;
      await Promise.all(workers);
    }
    assert.deepEqual(outcome.lost, [], cluster.logs());
    assert.ok(outcome.completed >= 20, `steady load: ${outcome.completed} calls completed during the restart`);
    assert.equal(outcome.completed, outcome.answered);
    console.log(`# rolling restart: ${outcome.completed} calls answered and completed under load`);
  });
});

/** The question a host's call opened (found by its session, as the instances logged it), once it is delivered. */
async function questionOf(api: OperatorApi, cluster: RunningCluster, sessionId: string): Promise<Awaited<ReturnType<OperatorApi['list']>>[number]> {
  let found: Awaited<ReturnType<OperatorApi['list']>>[number] | undefined;
  await until(`the question of session ${sessionId} is open`, async () => {
    const hostOf = hostSessions(cluster.logs());
    found = (await api.list('state=delivered&limit=200')).find((view) => hostOf.get(view.hostSessionId ?? '') === sessionId);
    return found !== undefined;
  });
  return found as NonNullable<typeof found>;
}

/** The events of an SSE response, one at a time: `next(type)` skips events of other types and gives the data. */
function sseEvents(response: Response): { next(type: string): Promise<string>; lastId(): string | undefined } {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let lastId: string | undefined;
  return {
    lastId: () => lastId,
    async next(type) {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: ?(.*)$/m.exec(block)?.[1] ?? 'message';
          lastId = /^id: ?(.*)$/m.exec(block)?.[1] ?? lastId;
          const data = [...block.matchAll(/^data: ?(.*)$/gm)].map((match) => match[1]).join('\n');
          if (event === type && data !== '') return data;
          continue;
        }
        const wait = deadline - Date.now();
        const read = await Promise.race([reader.read(), new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), Math.max(0, wait)).unref())]);
        if (read === 'late') throw new Error(`no ${type} event within 15 s; left: ${buffer}`);
        const { done, value } = read;
        if (done) throw new Error(`the stream ended before a ${type} event`);
        buffer += decoder.decode(value, { stream: true });
      }
    },
  };
}

/** The Mcp-Session-Id of each gateway host session, as the instances logged them when the sessions opened. */
function hostSessions(logs: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const match of logs.matchAll(/host session opened session=(\S+) hostSession=(\S+)/g)) map.set(match[2] as string, match[1] as string);
  return map;
}

/** The instance a session id names (`<instance id, base64url>.<uuid>`, design 013). */
function ownerOfSession(sessionId: string): string {
  return Buffer.from(sessionId.split('.')[0] as string, 'base64url').toString('utf8');
}
