/**
 * @module incident-desk/stateless/same-surface.test: no tool, resource, template or prompt is dropped (or changed)
 * by the stateless mode: its lists equal the legacy desk's, item for item.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { modernRequest } from '../testing/modern-wire.js';
import { type RawStdioPeer, spawnRawStdio } from '../testing/raw-stdio.js';

const LISTS = [
  ['tools/list', 'tools'],
  ['resources/list', 'resources'],
  ['resources/templates/list', 'resourceTemplates'],
  ['prompts/list', 'prompts'],
] as const;

async function listAll(peer: RawStdioPeer, request: (id: number, method: string) => Record<string, unknown>): Promise<Record<string, unknown>> {
  const lists: Record<string, unknown> = {};
  let id = 10;
  for (const [method, key] of LISTS) {
    peer.send(request(id++, method));
    lists[key] = (await peer.next()).result?.[key];
  }
  return lists;
}

test('the stateless desk lists exactly what the legacy desk lists', async () => {
  const legacy = spawnRawStdio();
  const stateless = spawnRawStdio(['--stateless']);
  try {
    legacy.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await legacy.next();
    legacy.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const legacyLists = await listAll(legacy, (id, method) => ({ jsonrpc: '2.0', id, method, params: {} }));
    const statelessLists = await listAll(stateless, (id, method) => modernRequest(id, method));
    assert.deepEqual((legacyLists.tools as { name: string }[]).map((tool) => tool.name), ['summarize_incident', 'restart_service']);
    assert.equal((legacyLists.resourceTemplates as unknown[]).length, 2);
    assert.deepEqual(statelessLists, legacyLists);
  } finally {
    await Promise.all([legacy.close(), stateless.close()]);
  }
});
