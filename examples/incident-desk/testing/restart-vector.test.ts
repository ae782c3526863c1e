/** @module Cross-checks the project's pinned restart exchange against the team's shared vector, when it is there. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  CAPABILITY_LESS_BEHAVIOUR,
  SHARED_RESTART_VECTOR,
  VECTOR_ANSWER_RESULT,
  VECTOR_CALL,
  VECTOR_ELICIT_PARAMS,
  VECTOR_FINAL_RESULT,
  VECTOR_PROTOCOL_VERSION,
} from './restart-vector.js';

test('the pinned restart exchange equals ../shared/vectors/incident-desk-restart.json', (t) => {
  if (!SHARED_RESTART_VECTOR) {
    t.skip('cross-check skipped: no ../shared/vectors beside this checkout');
    return;
  }
  const [call, elicit, answer, final] = SHARED_RESTART_VECTOR.steps;
  assert.equal(SHARED_RESTART_VECTOR.negotiatedProtocolVersion, VECTOR_PROTOCOL_VERSION);
  assert.deepEqual(call.message, VECTOR_CALL);
  assert.equal(elicit.message.method, 'elicitation/create');
  assert.deepEqual(elicit.message.params, VECTOR_ELICIT_PARAMS);
  assert.deepEqual(answer.message.result, VECTOR_ANSWER_RESULT);
  assert.deepEqual(final.message, { jsonrpc: '2.0', id: VECTOR_CALL.id, result: VECTOR_FINAL_RESULT });
});

test('the pinned capability-less behaviour (isError for a tool that does not check) is the shared vector\'s', (t) => {
  if (!SHARED_RESTART_VECTOR) {
    t.skip('cross-check skipped: no ../shared/vectors beside this checkout');
    return;
  }
  assert.ok(SHARED_RESTART_VECTOR.also_captured?.includes(CAPABILITY_LESS_BEHAVIOUR), JSON.stringify(SHARED_RESTART_VECTOR.also_captured));
});
