/**
 * @module incident-desk/stateless/restart-vector.test: the pinned 2026-07-28 restart exchange, checked against the
 * 2025-11-25 vector and replayed field for field against the real stateless desk over HTTP and stdio; any
 * 2026-07-28 desk vector in ../shared/vectors is replayed the same way.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { postModern, type WireObject } from '../testing/modern-wire.js';
import { MODERN_RESTART_VECTOR_PATH, SHARED_VECTORS_DIR } from '../testing/paths.js';
import { spawnRawStdio } from '../testing/raw-stdio.js';
import { VECTOR_ANSWER_RESULT, VECTOR_ELICIT_PARAMS, VECTOR_FINAL_RESULT } from '../testing/restart-vector.js';
import { spawnHttpIncidentDesk } from '../testing/spawn-http.js';
import { findModernDeskVectors, readVector, replayVector, type WireVector } from '../testing/vector-replay.js';

const PINNED = readVector(MODERN_RESTART_VECTOR_PATH);

type Step = { params?: WireObject; result?: WireObject };
const step = (index: number): Step => (PINNED.steps[index]?.message ?? {}) as Step;

async function replayOverHttp(vector: WireVector): Promise<string[]> {
  const desk = await spawnHttpIncidentDesk(['--stateless']);
  try {
    return await replayVector(vector, async (message) => {
      const { status, contentType, reply } = await postModern(desk.url, message);
      assert.equal(status, 200);
      assert.match(contentType ?? '', /^application\/json/);
      return reply;
    });
  } finally {
    await desk.stop();
  }
}

async function replayOverStdio(vector: WireVector): Promise<string[]> {
  const peer = spawnRawStdio(['--stateless']);
  try {
    return await replayVector(vector, async (message) => {
      peer.send(message);
      return peer.next();
    });
  } finally {
    await peer.close();
  }
}

test('the pinned 2026-07-28 exchange asks the 2025-11-25 question without _meta and answers as that vector does', () => {
  const { _meta: _unused, ...question } = VECTOR_ELICIT_PARAMS;
  const inputRequests = step(1).result?.inputRequests as Record<string, { method: string; params: WireObject }>;
  assert.deepEqual(inputRequests, { approval: { method: 'elicitation/create', params: question } });
  assert.deepEqual((step(2).params?.inputResponses as WireObject).approval, VECTOR_ANSWER_RESULT);
  const { resultType, _meta, ...final } = step(3).result ?? {};
  assert.deepEqual(final, VECTOR_FINAL_RESULT);
  assert.equal(resultType, 'complete');
  assert.ok(_meta);
});

test('the stateless desk speaks the pinned exchange exactly over Streamable HTTP', async () => {
  assert.deepEqual(await replayOverHttp(PINNED), []);
});

test('the stateless desk speaks the pinned exchange exactly over stdio', async () => {
  assert.deepEqual(await replayOverStdio(PINNED), []);
});

test('every 2026-07-28 incident-desk vector in ../shared/vectors replays exactly', async (t) => {
  const shared = findModernDeskVectors(SHARED_VECTORS_DIR);
  if (shared.length === 0) {
    t.skip('cross-check skipped: no 2026-07-28 incident-desk vector in ../shared/vectors (or no ../shared beside this checkout)');
    return;
  }
  for (const { path, vector } of shared) {
    assert.deepEqual(await replayOverHttp(vector), [], `${path} over HTTP`);
    assert.deepEqual(await replayOverStdio(vector), [], `${path} over stdio`);
  }
});
