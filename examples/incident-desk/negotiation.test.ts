/** @module incident-desk/negotiation.test: every legacy revision a host may ask for, on the raw stdio wire. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { spawnRawStdio } from './testing/raw-stdio.js';

const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

for (const revision of REVISIONS) {
  test(`a host asking for ${revision} gets ${revision}, and the process exits when stdin closes`, async () => {
    const peer = spawnRawStdio();
    try {
      peer.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
      const answer = await peer.next();
      assert.equal(answer.id, 1);
      assert.equal(answer.result?.protocolVersion, revision);
    } finally {
      await peer.close();
    }
  });
}

test('at 2025-06-18 the approval question carries no mode field (that revision has none)', async () => {
  const peer = spawnRawStdio();
  try {
    peer.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 'raw', version: '1' } } });
    await peer.next();
    peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    peer.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'restart_service', arguments: { service: 'auth-gateway' } } });
    const question = await peer.next();
    assert.equal(question.method, 'elicitation/create');
    assert.equal(question.params?.message, 'Restart auth-gateway? This drops in-flight requests.');
    assert.equal('mode' in (question.params ?? {}), false);
    peer.send({ jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { confirm: true, ticket: 'CHG-7' } } });
    const final = await peer.next();
    assert.deepEqual(final, { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'RESTARTED auth-gateway under CHG-7' }], isError: false } });
  } finally {
    await peer.close();
  }
});
