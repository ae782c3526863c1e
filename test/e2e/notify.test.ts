/**
 * @module e2e/notify.test: webhooks of a real `switchboard serve` (incident desk over stdio) to a real node:http receiver
 * on loopback: a question waiting for an operator is POSTed signed (the signature verifies with the secret), a 500 is
 * retried, counted and audited, the operator's answer and an expiry arrive, a question its host answered sends nothing,
 * and the Slack format is `text` plus `blocks`.
 */
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import { after, before, describe, test } from 'node:test';

import { type RunningGateway, startGateway } from './harness/gateway.js';
import { OperatorApi } from './harness/operator-api.js';
import { RawHost } from './harness/raw-host.js';
import { incidentDeskStdio } from './harness/upstreams.js';

const TOKEN = 'e2e-notify-operator-token-5Kd8';
const SECRET = 'e2e-notify-secret-0123456789abcdef';
const OLD = '2025-06-18';
const APPROVE = { action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } } as const;

interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** The receiver: records every POST; /hook answers 500 to its very first request, then 200; /slack answers "ok". */
async function startReceiver(): Promise<{ url: string; received: Delivery[]; server: Server }> {
  const received: Delivery[] = [];
  let hookRequests = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (path === '/hook' && hookRequests++ === 0) {
        response.writeHead(500, { 'content-type': 'text/plain' }).end('receiver down');
        return;
      }
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  return { url: `http://127.0.0.1:${address.port}`, received, server };
}

/** What a receiver does with X-Switchboard-Signature: recompute the HMAC over the raw body and compare in constant time. */
function verifies(delivery: Delivery, secret: string): boolean {
  const header = delivery.headers['x-switchboard-signature'];
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(delivery.body, 'utf8').digest('hex'));
  const given = Buffer.from(header.slice('sha256='.length));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

type Document = { id: string; type: string; time: string; question: { id: string; url?: string; state: string; upstream: string; tool?: string; answeredBy?: { kind: string; name?: string } } };

describe('notify: webhooks to a receiver on loopback (switchboard serve, incident desk over stdio)', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let gateway: RunningGateway;
  let api: OperatorApi;
  let base: string;
  before(async () => {
    receiver = await startReceiver();
    gateway = await startGateway(
      {
        upstreams: { desk: incidentDeskStdio() },
        questions: { route: 'host-then-operator', timeout: '4s' },
        console: { token: TOKEN },
        notify: [
          { name: 'hook', url: `${receiver.url}/hook`, secret: '${HOOK_SECRET}', headers: { Authorization: 'Bearer ${HOOK_TOKEN}' } },
          { name: 'slack', url: `${receiver.url}/slack`, format: 'slack', events: ['question.waiting'] },
        ],
      },
      { env: { HOOK_SECRET: SECRET, HOOK_TOKEN: 'receiver-token' } },
    );
    api = new OperatorApi(gateway.url, TOKEN, 'Ada');
    base = gateway.url.replace(/\/mcp$/, '');
  });
  after(async () => {
    await gateway?.stop();
    receiver?.server.closeAllConnections();
    await new Promise((resolve) => receiver?.server.close(resolve));
  });

  const at = (path: string, questionId: string) =>
    receiver.received.filter((delivery) => delivery.path === path && (JSON.parse(delivery.body) as { question?: { id?: string } }).question?.id === questionId);

  test('waiting: signed, retried after the 500 (both attempts audited and counted), then the operator\'s answer; Slack gets text and blocks', async (t) => {
    const host = await RawHost.connect(gateway.url, { protocolVersion: OLD, capabilities: {} });
    t.after(() => host.close());
    const known = await api.ids();
    const call = await host.callTool(1, 'restart_service', { service: 'payments-api' });
    const question = await api.awaitNewQuestion(known, 'state=delivered');
    assert.equal(question.audience, 'operator');

    const waiting = await until('two attempts of the waiting event', () => (at('/hook', question.id).length >= 2 ? at('/hook', question.id) : undefined));
    const [first, second] = waiting;
    assert.ok(first && second);
    assert.equal(first.body, second.body, 'the retry sends the same document');
    for (const delivery of [first, second]) {
      assert.ok(verifies(delivery, SECRET), 'the signature verifies with the secret');
      assert.equal(verifies(delivery, 'another-secret-of-some-length'), false);
      assert.equal(delivery.headers['x-switchboard-event'], 'question.waiting');
      assert.equal(delivery.headers['authorization'], 'Bearer receiver-token');
    }
    assert.deepEqual([first.headers['x-switchboard-attempt'], second.headers['x-switchboard-attempt']], ['1', '2']);
    const document = JSON.parse(first.body) as Document;
    assert.equal(document.type, 'question.waiting');
    assert.equal(first.headers['x-switchboard-event-id'], document.id);
    assert.match(document.id, /^evt_[0-9a-f]{32}$/);
    assert.ok(Math.abs(Date.parse(document.time) - Date.now()) < 60_000, 'a current timestamp');
    assert.equal(document.question.url, `${base}/console#question/${encodeURIComponent(question.id)}`);
    assert.equal(document.question.upstream, 'desk');
    assert.equal(document.question.tool, 'restart_service');

    const slack = await until('the Slack message', () => at('/slack', question.id)[0] ?? receiver.received.find((d) => d.path === '/slack'));
    const message = JSON.parse(slack.body) as { text: unknown; blocks: { type: string }[] };
    assert.deepEqual(Object.keys(message).sort(), ['blocks', 'text']);
    assert.equal(typeof message.text, 'string');
    assert.match(message.text as string, /^Question waiting for an operator: /);
    assert.deepEqual(message.blocks.map((block) => block.type), ['section', 'context', 'actions']);
    assert.equal(slack.headers['x-switchboard-signature'], undefined, 'no secret, no signature');

    const answered = await api.answer(question.id, APPROVE);
    assert.equal(answered.status, 200, answered.text);
    await call.rest();
    const settled = await until('the answered event', () => at('/hook', question.id).find((d) => d.headers['x-switchboard-event'] === 'question.answered'));
    assert.ok(verifies(settled, SECRET));
    const settledDocument = JSON.parse(settled.body) as Document;
    assert.deepEqual(settledDocument.question.answeredBy, { kind: 'operator', name: 'Ada' });
    assert.equal(settledDocument.question.state, 'answered');
    assert.notEqual(settledDocument.id, document.id);
    assert.doesNotMatch(settled.body, /CHG-2291/, 'never the answer');

    const detail = await until('every attempt audited', async () => {
      const read = await api.detail(question.id);
      return read.audit.filter((line) => line.action.startsWith('notify-')).length >= 4 ? read : undefined;
    });
    const notifyLines = detail.audit.filter((line) => line.action.startsWith('notify-')).map((line) => [line.action, line.detail?.['target'], line.detail?.['event'], line.detail?.['attempt'], line.detail?.['status']]);
    assert.deepEqual(
      notifyLines.filter((line) => line[1] === 'hook'),
      [
        ['notify-failed', 'hook', 'question.waiting', 1, 500],
        ['notify-sent', 'hook', 'question.waiting', 2, 200],
        ['notify-sent', 'hook', 'question.answered', 1, 200],
      ],
    );
    assert.deepEqual(notifyLines.filter((line) => line[1] === 'slack'), [['notify-sent', 'slack', 'question.waiting', 1, 200]]);
    const deliveries = (detail as unknown as { deliveries: { target: string; event: string; state: string; attempts: number }[] }).deliveries;
    assert.deepEqual(deliveries.map((d) => [d.target, d.event, d.state, d.attempts]), [
      ['hook', 'question.waiting', 'sent', 2],
      ['slack', 'question.waiting', 'sent', 1],
      ['hook', 'question.answered', 'sent', 1],
    ]);
    assert.doesNotMatch(JSON.stringify(detail), new RegExp(`${SECRET}|receiver-token`), 'no secret in the question view');

    const metrics = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    assert.match(metrics, /^switchboard_notify_attempts_total\{target="hook",event="question.waiting",outcome="retry"\} 1$/m, 'the retry is counted');
    assert.match(metrics, /^switchboard_notify_attempts_total\{target="hook",event="question.waiting",outcome="sent"\} 1$/m);
  });

  test('a question its host answered sends nothing', async (t) => {
    const host = await RawHost.connect(gateway.url, { protocolVersion: OLD, capabilities: { elicitation: {} } });
    t.after(() => host.close());
    const before = receiver.received.length;
    const known = await api.ids();
    const call = await host.callTool(2, 'restart_service', { service: 'payments-api' });
    const asked = await call.expectNext();
    assert.equal(asked.method, 'elicitation/create');
    const question = await api.awaitNewQuestion(known);
    assert.equal(question.audience, 'host');
    assert.equal((await host.answer(asked.id, APPROVE)).status, 202);
    await call.rest();
    // Long enough for a delivery (the first attempt of a waiting event comes within milliseconds).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(receiver.received.length, before, 'nothing sent');
    assert.deepEqual((await api.detail(question.id)).audit.filter((line) => line.action.startsWith('notify-')), []);
  });

  test('a question nobody answers expires: the expired event arrives, signed', async (t) => {
    const host = await RawHost.connect(gateway.url, { protocolVersion: OLD, capabilities: {} });
    t.after(() => host.close());
    const known = await api.ids();
    const call = await host.callTool(3, 'restart_service', { service: 'payments-api' });
    const question = await api.awaitNewQuestion(known, 'state=delivered');
    await until('the waiting event', () => at('/hook', question.id).find((d) => d.headers['x-switchboard-event'] === 'question.waiting'));
    const expired = await until('the expired event', () => at('/hook', question.id).find((d) => d.headers['x-switchboard-event'] === 'question.expired'), 15_000);
    assert.ok(verifies(expired, SECRET));
    const document = JSON.parse(expired.body) as Document;
    assert.equal(document.question.state, 'expired');
    assert.deepEqual(document.question.answeredBy, { kind: 'gateway', reason: 'the question expired' });
    await call.rest();
  });
});
