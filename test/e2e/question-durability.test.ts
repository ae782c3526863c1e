/**
 * @module e2e/question-durability.test: questions in the SQLite store outlive a gateway killed with SIGKILL: after a restart
 * with the same config, an answered question and its audit trail are intact, and one still waiting at the kill is abandoned.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { restartApprovalParams } from '../../examples/incident-desk/tools/restart-approval.js';
import type { ChildHandle } from './harness/child.js';
import { type ConfigFile, serveConfig, writeConfigFile } from './harness/gateway.js';
import { type ApiErrorBody, OperatorApi, type QuestionDetail } from './harness/operator-api.js';
import { RawHost } from './harness/raw-host.js';
import type { MessageReader } from './harness/sse-reader.js';
import { isToolError, toolText } from './harness/tool-results.js';
import { incidentDeskStdio } from './harness/upstreams.js';
import { eventually } from './harness/wait.js';

const TOKEN = 'e2e-durability-token-K3v8pQ';
const OPERATOR = 'Grace';
const REVISION = '2025-06-18';
const STORE_FILE = 'data/q.db';
const APPROVE = { action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } } as const;

interface GroupMember {
  readonly pid: number;
  readonly commandLine: string;
}

/** The live (not zombie) processes of process group `pgid`, from Linux's /proc. */
function processGroup(pgid: number): GroupMember[] {
  const members: GroupMember[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // After the command name (in parentheses, which may hold spaces): state, ppid, pgrp, …
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) !== pgid || state === 'Z') continue;
      members.push({ pid: Number(entry), commandLine: readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ') });
    } catch {
      // the process ended while we looked
    }
  }
  return members;
}

describe('question durability: the SQLite store across a SIGKILL of switchboard serve (incident desk over stdio)', { skip: process.platform !== 'linux' && 'reads /proc to follow the process group' }, () => {
  let config: ConfigFile;
  let gateway: ChildHandle | undefined;
  let host: RawHost | undefined;
  let pendingCall: MessageReader | undefined;
  let api: OperatorApi;
  let answered: QuestionDetail;
  let waiting: QuestionDetail;
  let groupBeforeKill: GroupMember[] = [];
  let killedGroup = 0;

  before(async () => {
    config = await writeConfigFile({
      upstreams: { desk: incidentDeskStdio() },
      questions: { route: 'host-then-operator' },
      console: { token: TOKEN },
      store: { type: 'sqlite', path: `./${STORE_FILE}` },
    });
    gateway = await serveConfig(config.path);
    api = new OperatorApi(gateway.value, TOKEN, OPERATOR);
    host = await RawHost.connect(gateway.value, { protocolVersion: REVISION, capabilities: {} });

    // First question: answered by an operator before the kill.
    let known = await api.ids();
    const call = await host.callTool(1, 'restart_service', { service: 'payments-api' });
    const first = await api.awaitNewQuestion(known);
    const reply = await api.answer(first.id, APPROVE);
    assert.equal(reply.status, 200, reply.text);
    const [result] = await call.rest();
    assert.equal(isToolError(result), false, JSON.stringify(result));
    assert.equal(toolText(result), 'RESTARTED payments-api under CHG-2291');
    answered = await api.detail(first.id);

    // Second question: still waiting for an operator when the gateway is killed.
    known = await api.ids();
    pendingCall = await host.callTool(2, 'restart_service', { service: 'ledger-db' });
    const second = await api.awaitNewQuestion(known);
    waiting = await api.detail(second.id);
  });

  after(async () => {
    await pendingCall?.close();
    await host?.close();
    await gateway?.stop();
    // Whatever happened, nothing of the killed group may outlive the test.
    if (killedGroup !== 0) for (const { pid } of processGroup(killedGroup)) process.kill(pid, 'SIGKILL');
    await config?.remove();
  });

  test('before the kill: one question answered by the operator, one waiting, both in the store file beside the config', () => {
    assert.equal(answered.question.state, 'answered');
    assert.deepEqual(answered.question.answeredBy, { kind: 'operator', name: OPERATOR });
    assert.deepEqual(answered.audit.map((line) => `${line.actor} ${line.action}`), ['gateway created', 'gateway delivered', `operator:${OPERATOR} answered`]);
    assert.equal(waiting.question.state, 'delivered');
    assert.deepEqual(waiting.question.params, restartApprovalParams('ledger-db', REVISION));
    assert.ok(existsSync(join(dirname(config.path), STORE_FILE)), `${STORE_FILE} is created relative to the config file`);
  });

  test('SIGKILL of the process group ends the gateway and its incident desk child; the same config starts again', async () => {
    assert.ok(gateway);
    const pgid = gateway.pid;
    groupBeforeKill = processGroup(pgid);
    assert.ok(groupBeforeKill.some((member) => member.pid === pgid), `the gateway leads its group: ${JSON.stringify(groupBeforeKill)}`);
    assert.ok(groupBeforeKill.some((member) => member.commandLine.includes('incident-desk')), `an incident desk runs in the group: ${JSON.stringify(groupBeforeKill)}`);

    killedGroup = pgid;
    process.kill(-pgid, 'SIGKILL');
    assert.equal(await gateway.exited, 'SIGKILL');
    assert.ok(await eventually(() => processGroup(pgid).length === 0, 5_000), `the group is gone: ${JSON.stringify(processGroup(pgid))}`);
    await gateway.stop();
    await pendingCall?.close();

    gateway = await serveConfig(config.path);
    api = new OperatorApi(gateway.value, TOKEN, OPERATOR);
  });

  test('after the restart: the answered question and its whole audit trail are as they were', async () => {
    assert.ok(gateway && !gateway.hasExited(), 'the restarted gateway runs');
    const now = await api.detail(answered.question.id);
    assert.deepEqual(now, answered);
    assert.deepEqual(now.audit.map((line) => line.action), ['created', 'delivered', 'answered']);
    const listed = await api.list('state=answered');
    assert.deepEqual(listed.find((question) => question.id === answered.question.id), answered.question);
  });

  test('after the restart: the question left waiting is abandoned, with an audit line saying why, and an answer to it gets 409', async () => {
    assert.ok(gateway && !gateway.hasExited(), 'the restarted gateway runs');
    const { id } = waiting.question;
    const now = await api.detail(id);
    assert.equal(now.question.state, 'abandoned');
    assert.equal(now.question.answeredBy?.kind, 'gateway');
    assert.match(now.question.answeredBy?.kind === 'gateway' ? now.question.answeredBy.reason : '', /restart/);
    assert.ok(now.question.settledAt, 'settled');
    assert.deepEqual(now.question.params, waiting.question.params);
    assert.deepEqual(now.audit.slice(0, waiting.audit.length), waiting.audit, 'the trail before the kill is intact');
    const added = now.audit.slice(waiting.audit.length);
    assert.deepEqual(added.map((line) => `${line.actor} ${line.action}`), ['gateway abandoned'], JSON.stringify(added));
    assert.match(String(added[0]?.detail?.reason), /the gateway restarted/);
    assert.deepEqual(await api.list('state=pending,delivered'), [], 'nothing is left open');

    const late = await api.answer(id, APPROVE);
    assert.equal(late.status, 409, late.text);
    const body = late.json as ApiErrorBody;
    assert.equal(body.error.code, 'ALREADY_SETTLED');
    assert.equal(body.question?.state, 'abandoned', late.text);
    const after = await api.detail(id);
    assert.equal(after.question.state, 'abandoned');
    assert.deepEqual(after.question.answeredBy, now.question.answeredBy);
    assert.deepEqual(after.audit.slice(now.audit.length).map((line) => line.action), ['rejected-answer']);
  });
});
