/** @module e2e/metrics.test: /metrics of a real `switchboard serve`: behind the operator token, counting calls, sessions and questions. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { type RunningGateway, startGateway } from './harness/gateway.js';
import { OperatorApi } from './harness/operator-api.js';
import { RawHost } from './harness/raw-host.js';
import { toolText } from './harness/tool-results.js';
import { incidentDeskStdio } from './harness/upstreams.js';

const TOKEN = 'metrics-e2e-operator-token-0001';

/** The value of one series line (`name{labels} value`), or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics through switchboard serve', () => {
  let gateway: RunningGateway;
  let base: string;
  before(async () => {
    gateway = await startGateway({ upstreams: { desk: incidentDeskStdio() }, questions: { route: 'host-then-operator' }, console: { token: TOKEN } });
    base = gateway.url.replace(/\/mcp$/, '');
  });
  after(() => gateway?.stop());

  async function scrape(token = TOKEN): Promise<Response> {
    return fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  }

  test('without the token: 401, and the body names no token', async () => {
    const refused = await scrape('not-the-operator-token-000');
    assert.equal(refused.status, 401);
    const body = await refused.text();
    assert.equal(body.includes(TOKEN) || body.includes('not-the-operator-token-000'), false);
    assert.equal((await fetch(`${base}/metrics`)).status, 401);
  });

  test('a call answered by an operator shows up as upstream requests, an active session and a settled question', async (t) => {
    const host = await RawHost.connect(gateway.url, { protocolVersion: '2025-06-18', capabilities: {} });
    t.after(() => host.close());
    const operator = new OperatorApi(gateway.url, TOKEN, 'Ada');
    const known = await operator.ids();
    const call = await host.callTool(1, 'restart_service', { service: 'payments-api' });
    const question = await operator.awaitNewQuestion(known);

    const during = await (await scrape()).text();
    assert.equal(sample(during, 'switchboard_host_sessions_active{transport="streamable-http"}'), 1);
    assert.equal(sample(during, 'switchboard_questions_open{audience="operator"}'), 1);
    assert.equal(sample(during, 'switchboard_upstreams_up{upstream="desk"}'), 1);

    assert.equal((await operator.answer(question.id, { action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } })).status, 200);
    const final = (await call.rest()).find((message) => message.id === 1);
    assert.equal(toolText(final), 'RESTARTED payments-api under CHG-2291');

    const response = await scrape();
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    assert.ok((sample(text, 'switchboard_upstream_requests_total{upstream="desk",method="tools/call",outcome="ok"}') ?? 0) >= 1, text);
    assert.equal(sample(text, 'switchboard_questions_open{audience="operator"}'), 0);
    assert.equal(
      sample(text, 'switchboard_questions_total{method="elicitation/create",route="host-then-operator",audience="operator",state="answered"}'),
      1,
    );
    assert.equal(sample(text, 'switchboard_question_answer_seconds_count{method="elicitation/create",answered_by="operator"}'), 1);
    assert.ok((sample(text, 'process_resident_memory_bytes') ?? 0) > 0);
  });
});
