/** @module e2e/stdio-downstream.test: `switchboard stdio` driven by the SDK Client over StdioClientTransport. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { ElicitRequest } from '@modelcontextprotocol/client';

import { writeConfigFile } from './harness/gateway.js';
import { connectSdkStdio } from './harness/sdk-host.js';
import { incidentDeskStdio } from './harness/upstreams.js';

test('switchboard stdio relays the restart approval to an SDK host and returns the restart', async (t) => {
  const config = await writeConfigFile({ upstreams: { desk: incidentDeskStdio() } });
  t.after(() => config.remove());
  const questions: ElicitRequest['params'][] = [];
  const host = await connectSdkStdio(config.path, { elicitation: { form: {} } }, {
    elicit: (request) => {
      questions.push(request.params);
      return { action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } };
    },
  });
  t.after(() => host.close());

  const { tools } = await host.client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name).sort(), ['restart_service', 'summarize_incident']);

  const result = await host.client.callTool({ name: 'restart_service', arguments: { service: 'payments-api' } });
  assert.deepEqual(result.content, [{ type: 'text', text: 'RESTARTED payments-api under CHG-2291' }]);
  assert.equal(result.isError, false);
  assert.equal(questions.length, 1);
  assert.equal(questions[0]?.message, 'Restart payments-api? This drops in-flight requests.');
  assert.equal(host.client.getServerVersion()?.name, 'switchboard');
  assert.deepEqual(host.errors.map((error) => error.message), [], `nothing but JSON-RPC on stdout; gateway stderr:\n${host.stderr()}`);
});
