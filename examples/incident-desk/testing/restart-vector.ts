/** @module incident-desk/testing/restart-vector: the shared restart_service wire vector, read and typed for the tests. */
import { readFileSync } from 'node:fs';

import { RESTART_VECTOR_PATH } from './paths.js';

interface VectorStep {
  readonly direction: string;
  readonly message: { readonly id?: unknown; readonly method?: string; readonly params?: Record<string, unknown>; readonly result?: Record<string, unknown> };
}

interface RestartVector {
  readonly negotiatedProtocolVersion: string;
  readonly steps: readonly [VectorStep, VectorStep, VectorStep, VectorStep];
}

export const RESTART_VECTOR = JSON.parse(readFileSync(RESTART_VECTOR_PATH, 'utf8')) as RestartVector;

const [call, elicit, answer, final] = RESTART_VECTOR.steps;
/** Step 1: the host's tools/call. */
export const VECTOR_CALL = call.message;
/** Step 2: the params of the server's elicitation/create. */
export const VECTOR_ELICIT_PARAMS = elicit.message.params ?? {};
/** Step 3: the host's answer (its `result`). */
export const VECTOR_ANSWER_RESULT = answer.message.result ?? {};
/** Step 4: the final tools/call result. */
export const VECTOR_FINAL_RESULT = final.message.result ?? {};
