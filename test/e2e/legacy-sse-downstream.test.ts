/** @module e2e/legacy-sse-downstream.test: a 2024-11-05-style host over the legacy HTTP+SSE transport (`/sse` + `/messages`). */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client, SSEClientTransport } from '@modelcontextprotocol/client';

import { startGateway } from './harness/gateway.js';
import { incidentDeskStdio } from './harness/upstreams.js';

test('a host on the legacy HTTP+SSE transport lists tools and answers an elicitation through the gateway', async (t) => {
  const gateway = await startGateway({ upstreams: { desk: incidentDeskStdio() } });
  t.after(() => gateway.stop());
  const base = new URL(gateway.url);
  const client = new Client({ name: 'legacy-sse-host', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', (request) => {
    asked.push(String(request.params.message));
    return { action: 'accept', content: { confirm: true, ticket: 'CHG-7' } };
  });
  await client.connect(new SSEClientTransport(new URL('/sse', base)));
  t.after(() => client.close());

  const tools = await client.listTools();
  assert.deepEqual(tools.tools.map((tool) => tool.name).sort(), ['restart_service', 'summarize_incident']);
  const result = await client.callTool({ name: 'restart_service', arguments: { service: 'payments-api' } });
  assert.deepEqual(asked, ['Restart payments-api? This drops in-flight requests.']);
  assert.deepEqual(result.content, [{ type: 'text', text: 'RESTARTED payments-api under CHG-7' }]);
});

test('the legacy endpoint refuses a POST without a known session, and a GET without the event-stream Accept', async (t) => {
  const gateway = await startGateway({ upstreams: { desk: incidentDeskStdio() } });
  t.after(() => gateway.stop());
  const base = new URL(gateway.url);
  const post = (query: string) =>
    fetch(new URL(`/messages${query}`, base), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","method":"ping","id":1}' });
  assert.equal((await post('')).status, 400);
  assert.equal((await post('?sessionId=nope')).status, 404);
  const get = await fetch(new URL('/sse', base), { headers: { accept: 'application/json' } });
  assert.equal(get.status, 406);
});
