/** @module e2e/upstream-restart.test: an HTTP upstream that restarts (and forgets our session) is re-initialized, and the host never notices. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { startGateway } from './harness/gateway.js';
import { freePort } from './harness/ports.js';
import { RawHost } from './harness/raw-host.js';
import { isToolError, pidOf, toolText } from './harness/tool-results.js';
import { startIncidentDeskHttp, startLabHttp, streamableHttpUpstream } from './harness/upstreams.js';

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

// Issue 11 item 17: the other ways an upstream says it no longer knows the session (server-everything answers 400).
const forgottenSessionForms = ['400 Session not found', '400 Bad Request: No valid session ID provided', '400 Bad Request: Server not initialized'];

for (const refusal of forgottenSessionForms) {
  test(`a restarted Streamable HTTP upstream that answers "${refusal}" for the old session is re-initialized transparently`, async (t) => {
    const port = await freePort();
    let lab = await startLabHttp(`127.0.0.1:${port}`, refusal);
    t.after(() => lab.stop());
    const gateway = await startGateway({ upstreams: { lab: streamableHttpUpstream(lab.url) } });
    t.after(() => gateway.stop());
    const host = await RawHost.connect(gateway.url, { capabilities: {} });
    t.after(() => host.close());

    const before = (await (await host.callTool(1, 'whoami', {})).rest()).at(-1);
    assert.equal(isToolError(before), false, JSON.stringify(before));

    await lab.stop();
    lab = await startLabHttp(`127.0.0.1:${port}`, refusal);

    const after = (await (await host.callTool(2, 'whoami', {})).rest()).at(-1);
    assert.equal(after?.id, 2);
    assert.equal(after?.error, undefined, `the call after the restart failed: ${JSON.stringify(after)}`);
    assert.equal(isToolError(after), false, JSON.stringify(after));
    assert.equal(pidOf(after), lab.process.pid, 'answered by the restarted upstream');
    assert.notEqual(pidOf(after), pidOf(before));
  });
}
