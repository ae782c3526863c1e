/**
 * @module Tests of secrets at rest: an answer to a `format: password` or `writeOnly` field, or to a URL-mode
 * elicitation, reaches the upstream as given and is kept (store, operator reads, events, audit) as "[redacted]".
 */

import { tokenOperator } from '../access/operator-principal.js';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { silentLogger } from '../core/log.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { MemoryQuestionStore } from '../store/memory/memory-question-store.js';
import { openSqliteQuestionStore } from '../store/sqlite/sqlite-question-store.js';
import { QuestionDesk } from '../questions/desk.js';
import type { OpenRequest } from '../questions/open-request.js';
import { FakeAsker } from '../questions/testing/desk-fakes.js';
import type { Outcome } from '../questions/settle-table.js';
import type { QuestionStore } from '../questions/question-store.js';
import type { QuestionRecord, RoutePolicy } from '../questions/question.js';

const PASSWORD = 'hunter2-Zq9';
const API_KEY = 'sk-live-K7w3';
const SIGN_IN_CODE = 'code-Rt5v';

/** A form with a password field, a writeOnly field and an ordinary one. */
const LOGIN_FORM: JsonObject = {
  mode: 'form',
  message: 'Sign in to the vault',
  requestedSchema: {
    type: 'object',
    properties: { password: { type: 'string', format: 'password' }, apiKey: { type: 'string', writeOnly: true }, user: { type: 'string' } },
    required: ['password'],
  },
};
const LOGIN_ANSWER = { action: 'accept', content: { password: PASSWORD, apiKey: API_KEY, user: 'ada' } } as const;
const LOGIN_AT_REST = { action: 'accept', content: { password: '[redacted]', apiKey: '[redacted]', user: 'ada' } };

function setup(store: QuestionStore = new MemoryQuestionStore()) {
  const desk = new QuestionDesk({ store, logger: silentLogger, operatorAvailable: true });
  const events: QuestionRecord[] = [];
  desk.subscribe((event) => events.push(event.question));
  return { store, desk, events };
}

function ask(params: JsonObject, route: RoutePolicy): OpenRequest & { asker: FakeAsker } {
  return {
    method: 'elicitation/create',
    params,
    origin: { upstream: 'vault', hostSessionId: 's-1', hostRevision: '2025-11-25' },
    route,
    timeoutMs: 60_000,
    asker: new FakeAsker(),
    upstreamId: 1,
    checkOperatorAnswer: (answer) => ({ ok: true, answer }),
  };
}

async function open(desk: QuestionDesk, asked: OpenRequest): Promise<QuestionRecord> {
  const opened = await desk.open(asked);
  assert.ok(opened, 'recorded');
  return opened.record;
}

/** The host's answer `result`, as the desk settles it. */
function fromHost(result: JsonObject): Outcome {
  return { kind: 'host-answer', message: { jsonrpc: '2.0', id: 'sb-1', result }, checked: result };
}

/** What the asker (and so the upstream) received. */
function relayed(asked: { asker: FakeAsker }): unknown {
  const [reply] = asked.asker.replies;
  return reply && 'result' in reply ? reply.result : undefined;
}

function assertNoSecret(value: unknown, where: string): void {
  const text = JSON.stringify(value);
  for (const secret of [PASSWORD, API_KEY, SIGN_IN_CODE]) assert.equal(text.includes(secret), false, `${where} holds ${secret}: ${text}`);
}

test("a host's answer to password and writeOnly fields is relayed as given, and kept, served and announced as [redacted]", async () => {
  const { store, desk, events } = setup();
  const asked = ask(LOGIN_FORM, 'both');
  const opened = await open(desk, asked);
  assert.equal(await desk.settle(opened.id, fromHost(structuredClone(LOGIN_ANSWER))), true);

  assert.deepEqual(relayed(asked), LOGIN_ANSWER, 'the upstream gets the real values');
  assert.deepEqual((await store.get(opened.id))?.answer, LOGIN_AT_REST);
  const served = await desk.get(opened.id);
  assert.deepEqual(served?.question.answer, LOGIN_AT_REST);
  assertNoSecret(served, 'GET /api/questions/{id}');
  assertNoSecret(events, 'the question events');
});

test("an operator's answer is relayed as given; what the operator gets back and the store keep [redacted]", async () => {
  const { store, desk } = setup();
  const asked = ask(LOGIN_FORM, 'operator');
  const opened = await open(desk, asked);
  const outcome = await desk.answer(opened.id, structuredClone(LOGIN_ANSWER), tokenOperator('alice'));
  assert.ok(outcome.ok);
  assert.deepEqual(outcome.question.answer, LOGIN_AT_REST);
  assert.deepEqual(relayed(asked), LOGIN_ANSWER);
  assert.deepEqual((await store.get(opened.id))?.answer, LOGIN_AT_REST);
  assertNoSecret(await desk.get(opened.id), 'the record and its audit');
});

test('whatever content completes a URL-mode elicitation is kept as [redacted]', async () => {
  const { store, desk } = setup();
  const asked = ask({ mode: 'url', message: 'Sign in', url: 'https://vault.example/sign-in', elicitationId: 'e-1' }, 'both');
  const opened = await open(desk, asked);
  await desk.settle(opened.id, fromHost({ action: 'accept', content: { code: SIGN_IN_CODE } }));
  assert.deepEqual(relayed(asked), { action: 'accept', content: { code: SIGN_IN_CODE } });
  assert.deepEqual((await store.get(opened.id))?.answer, { action: 'accept', content: { code: '[redacted]' } });
});

test('an answer without secret fields is kept as given', async () => {
  const { store, desk } = setup();
  const opened = await open(desk, ask({ mode: 'form', message: 'Ticket?', requestedSchema: { type: 'object', properties: { ticket: { type: 'string' } } } }, 'both'));
  await desk.settle(opened.id, fromHost({ action: 'accept', content: { ticket: 'CHG-1' } }));
  assert.deepEqual((await store.get(opened.id))?.answer, { action: 'accept', content: { ticket: 'CHG-1' } });
});

test('the SQLite store files never hold the secret values', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-secrets-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const store = await openSqliteQuestionStore({ path: join(dir, 'questions.db') });
  const { desk } = setup(store);
  const opened = await open(desk, ask(LOGIN_FORM, 'both'));
  await desk.settle(opened.id, fromHost(structuredClone(LOGIN_ANSWER)));
  await desk.close();
  await store.close();
  for (const file of await readdir(dir)) {
    const bytes = await readFile(join(dir, file));
    for (const secret of [PASSWORD, API_KEY]) assert.equal(bytes.includes(secret), false, `${file} holds ${secret}`);
  }
});
