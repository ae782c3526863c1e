/** @module Tests that the REST API's question view shows each webhook target's delivery status, read from the audit trail. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { FakeOperatorDesk } from './testing/fake-desk.js';
import { createOperatorRoutes } from './operator-routes.js';

const TOKEN = 'deliveries-token-0123456789';

describe('GET /api/questions/{id}: deliveries', () => {
  it('lists each target\'s and event\'s last attempt; none before any', async () => {
    const desk = new FakeOperatorDesk();
    const routes = createOperatorRoutes({ desk, token: TOKEN });
    const get = async (id: string) => {
      const response = await routes.handle(new Request(`http://127.0.0.1/api/questions/${id}`, { headers: { authorization: `Bearer ${TOKEN}` } }));
      assert.equal(response?.status, 200);
      return (await response?.json()) as { deliveries: { target: string; event: string; state: string; attempts: number; status?: number; error?: string }[] };
    };
    const question = desk.add();
    assert.deepEqual((await get(question.id)).deliveries, []);
    desk.audit(question.id, 'notify-failed', { target: 'pager', event: 'question.waiting', eventId: 'evt_1', attempt: 1, status: 500, error: 'HTTP 500', retryInMs: 900 });
    assert.deepEqual((await get(question.id)).deliveries.map((d) => [d.target, d.state, d.attempts, d.status]), [['pager', 'retrying', 1, 500]]);
    desk.audit(question.id, 'notify-sent', { target: 'pager', event: 'question.waiting', eventId: 'evt_1', attempt: 2, status: 200 });
    const [delivery] = (await get(question.id)).deliveries;
    assert.deepEqual(delivery && { target: delivery.target, event: delivery.event, state: delivery.state, attempts: delivery.attempts, status: delivery.status, error: delivery.error }, {
      target: 'pager',
      event: 'question.waiting',
      state: 'sent',
      attempts: 2,
      status: 200,
      error: undefined,
    });
    routes.close();
  });
});
