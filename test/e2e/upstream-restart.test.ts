/** @module e2e/upstream-restart.test: an HTTP upstream that restarts (and forgets our session) is re-initialized, and the host never notices. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { startGateway } from './harness/gateway.js';
import { freePort } from './harness/ports.js';
import { RawHost } from './harness/raw-host.js';
import { isToolError, toolText } from './harness/tool-results.js';
import { startIncidentDeskHttp, streamableHttpUpstream } from './harness/upstreams.js';

test('a restarted Streamable HTTP upstream is re-initialized transparently (it answers 404 for the old session)', async (t) => {
  const port = await freePort();
  let desk = await startIncidentDeskHttp(`127.0.0.1:${port}`);
  t.after(() => desk.stop());
  const gateway = await startGateway({ upstreams: { remote: streamableHttpUpstream(desk.url) } });
  t.after(() => gateway.stop());
  const host = await RawHost.connect(gateway.url, { capabilities: {} });
  t.after(() => host.close());

  const before = await (await host.callTool(1, 'summarize_incident', { id: 'INC-1042' })).rest();
  assert.equal(isToolError(before.at(-1)), false, JSON.stringify(before));

  await desk.stop();
  desk = await startIncidentDeskHttp(`127.0.0.1:${port}`);

  const after = await (await host.callTool(2, 'summarize_incident', { id: 'INC-1042' })).rest();
  const final = after.at(-1);
  assert.equal(final?.id, 2);
  assert.equal(final?.error, undefined, `the call after the restart failed: ${JSON.stringify(final)}`);
  assert.equal(isToolError(final), false);
  assert.equal(toolText(final), toolText(before.at(-1)));
});
