/** @module incident-desk/testing/vector-replay.test: placeholder matching and filling of the vector replayer. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { type Captured, diffMessage, fillPlaceholders, findModernDeskVectors, isPlaceholder, replayVector, type WireVector } from './vector-replay.js';

test('a <...> string is a placeholder; other strings are not', () => {
  assert.equal(isPlaceholder('<any>'), true);
  assert.equal(isPlaceholder('<>'), true);
  assert.equal(isPlaceholder('<open'), false);
  assert.equal(isPlaceholder('plain'), false);
  assert.equal(isPlaceholder(7), false);
});

test('equal messages have no differences; a placeholder matches any present value and remembers it by key', () => {
  const captured: Captured = new Map();
  const expected = { id: 7, result: { requestState: '<opaque>', list: [1, { a: 'x' }] } };
  assert.deepEqual(diffMessage(expected, { id: 7, result: { requestState: 'v1.abc', list: [1, { a: 'x' }] } }, captured), []);
  assert.equal(captured.get('requestState'), 'v1.abc');
});

test('a changed value, a missing key, an extra key, a wrong length and a missing placeholder value are all reported', () => {
  const expected = { a: 1, b: { c: 'x' }, d: [1, 2], e: '<any>' };
  const differences = diffMessage(expected, { a: 2, b: { c: 'x', extra: true }, d: [1], f: 0 }, new Map());
  assert.deepEqual(differences.sort(), [
    '$.a: expected 1, got 2',
    '$.b.extra: unexpected',
    '$.d: expected an array of 2',
    '$.e: missing (expected <any>)',
    '$.f: unexpected',
  ]);
});

test('host placeholders take the value remembered under the same key; an unknown one throws', () => {
  const captured: Captured = new Map([['requestState', 'v1.abc']]);
  assert.deepEqual(fillPlaceholders({ params: { requestState: '<echo>', name: 'x' } }, captured), { params: { requestState: 'v1.abc', name: 'x' } });
  assert.throws(() => fillPlaceholders({ other: '<echo>' }, captured), /no value remembered for "other"/);
});

test('a replay sends filled host steps and reports differences per server step', async () => {
  const vector: WireVector = {
    steps: [
      { direction: 'host->server', message: { id: 1 } },
      { direction: 'server->host', message: { id: 1, token: '<t>' } },
      { direction: 'host->server', message: { id: 2, token: '<echo>' } },
      { direction: 'server->host', message: { id: 2, ok: true } },
    ],
  };
  const sent: unknown[] = [];
  const differences = await replayVector(vector, async (message) => {
    sent.push(message);
    return message.id === 1 ? { id: 1, token: 'T-1' } : { id: 2, ok: false };
  });
  assert.deepEqual(sent, [{ id: 1 }, { id: 2, token: 'T-1' }]);
  assert.deepEqual(differences, ['step 4: $.ok: expected true, got false']);
  assert.deepEqual(await replayVector({ steps: [{ direction: 'server->host', message: {} }] }, async () => ({})), [
    'step 1: expected a host->server step answered by a server->host step',
  ]);
});

test('only incident-desk*.json vectors at 2026-07-28 are found; a missing folder finds none', () => {
  const dir = mkdtempSync(join(tmpdir(), 'desk-vectors-'));
  try {
    writeFileSync(join(dir, 'incident-desk-restart.json'), JSON.stringify({ negotiatedProtocolVersion: '2025-11-25', steps: [] }));
    writeFileSync(join(dir, 'incident-desk-modern.json'), JSON.stringify({ protocolVersion: '2026-07-28', steps: [] }));
    writeFileSync(join(dir, 'incident-desk-other.json'), JSON.stringify({ negotiatedProtocolVersion: '2026-07-28', steps: [] }));
    writeFileSync(join(dir, 'gateway-modern.json'), JSON.stringify({ protocolVersion: '2026-07-28', steps: [] }));
    assert.deepEqual(findModernDeskVectors(dir).map(({ path }) => path).sort(), [join(dir, 'incident-desk-modern.json'), join(dir, 'incident-desk-other.json')]);
    assert.deepEqual(findModernDeskVectors(join(dir, 'absent')), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
