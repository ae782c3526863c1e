/** @module incident-desk/stateless/stdio.test: the real `incident-desk --stateless` process over stdio, with raw 2026-07-28 JSON-RPC lines. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { modernRequest } from '../testing/modern-wire.js';
import { type RawStdioPeer, spawnRawStdio } from '../testing/raw-stdio.js';
import { STATE_KEY_ENV } from './state-key.js';

const FORM = { elicitation: { form: {} } };

describe('incident-desk --stateless over stdio', () => {
  let peer: RawStdioPeer;
  before(() => {
    peer = spawnRawStdio(['--stateless']);
  });
  after(async () => {
    await peer.close();
  });

  test('a legacy initialize as the opening message is refused with -32022, and the connection stays usable', async () => {
    peer.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'old', version: '1' } } });
    assert.deepEqual(await peer.next(), {
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32022, message: 'Unsupported protocol version: 2025-06-18', data: { supported: ['2026-07-28'], requested: '2025-06-18' } },
    });
  });

  test('server/discover answers with the one supported revision', async () => {
    peer.send(modernRequest(2, 'server/discover'));
    const reply = await peer.next();
    assert.equal(reply.id, 2);
    assert.deepEqual(reply.result?.supportedVersions, ['2026-07-28']);
    assert.equal(reply.result?.resultType, 'complete');
  });

  test('tools/list carries both tools', async () => {
    peer.send(modernRequest(3, 'tools/list'));
    const reply = await peer.next();
    assert.deepEqual((reply.result?.tools as { name: string }[]).map((tool) => tool.name), ['summarize_incident', 'restart_service']);
  });

  test('restart accepted through input_required and a retry with a new id', async () => {
    peer.send(modernRequest(4, 'tools/call', { name: 'restart_service', arguments: { service: 'ledger-db' } }, FORM));
    const asked = await peer.next();
    assert.equal(asked.id, 4);
    assert.equal(asked.result?.resultType, 'input_required');
    peer.send(
      modernRequest(
        5,
        'tools/call',
        {
          name: 'restart_service',
          arguments: { service: 'ledger-db' },
          inputResponses: { approval: { action: 'accept', content: { confirm: true, ticket: 'CHG-9' } } },
          requestState: asked.result?.requestState,
        },
        FORM,
      ),
    );
    const done = await peer.next();
    assert.equal(done.id, 5);
    assert.deepEqual(done.result?.content, [{ type: 'text', text: 'RESTARTED ledger-db under CHG-9' }]);
  });

  test('a state minted by another desk process (another random key) is refused with -32602', async () => {
    const other = spawnRawStdio(['--stateless']);
    try {
      other.send(modernRequest(1, 'tools/call', { name: 'restart_service', arguments: { service: 'ledger-db' } }, FORM));
      const foreign = (await other.next()).result?.requestState;
      peer.send(
        modernRequest(
          6,
          'tools/call',
          { name: 'restart_service', arguments: { service: 'ledger-db' }, inputResponses: { approval: { action: 'accept', content: { confirm: true, ticket: 'CHG-9' } } }, requestState: foreign },
          FORM,
        ),
      );
      const reply = await peer.next();
      assert.equal(reply.id, 6);
      assert.equal((reply.error as { code?: number } | undefined)?.code, -32602);
    } finally {
      await other.close();
    }
  });

  test('summarize_incident through one sampling round', async () => {
    peer.send(modernRequest(7, 'tools/call', { name: 'summarize_incident', arguments: { id: 'INC-1044' } }, { sampling: {} }));
    const asked = await peer.next();
    const requests = asked.result?.inputRequests as Record<string, { method: string }>;
    assert.equal(requests.summary?.method, 'sampling/createMessage');
    peer.send(
      modernRequest(
        8,
        'tools/call',
        {
          name: 'summarize_incident',
          arguments: { id: 'INC-1044' },
          inputResponses: { summary: { role: 'assistant', model: 'm-2', content: [{ type: 'text', text: 'Token cache storm in eu-west.' }] } },
          requestState: asked.result?.requestState,
        },
        { sampling: {} },
      ),
    );
    const done = await peer.next();
    assert.deepEqual(done.result?.content, [{ type: 'text', text: 'Summary of INC-1044 (by m-2):\nToken cache storm in eu-west.' }]);
  });

  test('the process ends cleanly when the host closes stdin', async () => {
    const short = spawnRawStdio(['--stateless']);
    short.send(modernRequest(1, 'server/discover'));
    await short.next();
    await short.close();
    assert.equal(await short.exited, 0);
  });
});

test('a too-short INCIDENT_DESK_STATE_KEY stops the stateless desk at start (exit 2, naming the variable)', async () => {
  const peer = spawnRawStdio(['--stateless'], { [STATE_KEY_ENV]: 'short' });
  assert.equal(await peer.exited, 2);
  assert.match(peer.stderr(), /^incident-desk: INCIDENT_DESK_STATE_KEY must be at least 32 bytes long\n/);
});
