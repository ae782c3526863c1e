/**
 * @module e2e/drain.test: `switchboard serve` on SIGTERM drains (issue 13's rolling restart): /healthz says draining, a new
 * host session is refused with 503 and Retry-After, the call in flight finishes (its question answered meanwhile), and
 * the process then exits by itself; with a call that does not finish, it exits once `cluster.drainTimeout` has passed.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { startGateway } from './harness/gateway.js';
import { RawHost } from './harness/raw-host.js';
import { toolText } from './harness/tool-results.js';
import { incidentDeskStdio } from './harness/upstreams.js';

const REVISION = '2025-06-18';
const APPROVE = { action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } };

async function initialize(url: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: REVISION, capabilities: {}, clientInfo: { name: 'late', version: '1' } } }),
  });
}

describe('serve drains on SIGTERM', () => {
  test('the call in flight finishes, a new session is refused meanwhile, and the process exits by itself', async () => {
    const gateway = await startGateway({ upstreams: { desk: incidentDeskStdio() }, questions: { route: 'host' }, console: { enabled: false }, store: { type: 'memory' }, cluster: { drainTimeout: '20s' } });
    try {
      const host = await RawHost.connect(gateway.url, { protocolVersion: REVISION, capabilities: { elicitation: {} } });
      const call = await host.callTool(2, 'restart_service', { service: 'payments-api' });
      const question = await call.until((message) => 'method' in message && message.method === 'elicitation/create');
      process.kill(gateway.process.pid, 'SIGTERM');
      // Draining: the balancer is told, and a new host is sent elsewhere.
      for (let tries = 0; ; tries += 1) {
        const health = await gateway.health({ token: false });
        if (health.status === 503) {
          assert.deepEqual(health.body, { ready: false, draining: true });
          break;
        }
        assert.ok(tries < 50, 'healthz says draining');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const late = await initialize(gateway.url);
      assert.equal(late.status, 503);
      assert.equal(late.headers.get('retry-after'), '1');
      // The open session goes on: its question is answered, and its call completes.
      const answered = await host.answer(question.id, APPROVE);
      assert.equal(answered.status, 202);
      const [result] = await call.rest();
      assert.equal(toolText(result), 'RESTARTED payments-api under CHG-2291');
      assert.equal(await gateway.process.exited, 0, 'it exits by itself once the call ended');
    } finally {
      await gateway.stop();
    }
  });

  test('a call that does not finish is given up after drainTimeout, and the process exits', async () => {
    const gateway = await startGateway({ upstreams: { desk: incidentDeskStdio() }, questions: { route: 'host' }, console: { enabled: false }, store: { type: 'memory' }, cluster: { drainTimeout: '500ms' } });
    try {
      const host = await RawHost.connect(gateway.url, { protocolVersion: REVISION, capabilities: { elicitation: {} } });
      const call = await host.callTool(2, 'restart_service', { service: 'payments-api' });
      await call.until((message) => 'method' in message && message.method === 'elicitation/create');
      process.kill(gateway.process.pid, 'SIGTERM');
      assert.equal(await gateway.process.exited, 0, 'it exits once drainTimeout passed, the question never answered');
    } finally {
      await gateway.stop();
    }
  });
});
