/**
 * @module incident-desk/testing/restart-vector: the restart_service exchange the project pins (host at
 * 2025-11-25), written here as our own expectation, and the team's shared vector when it sits beside the
 * checkout (../shared/vectors/incident-desk-restart.json), for the cross-check in restart-vector.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';

import { SHARED_RESTART_VECTOR_PATH } from './paths.js';

interface VectorStep {
  readonly direction: string;
  readonly message: { readonly id?: unknown; readonly method?: string; readonly params?: Record<string, unknown>; readonly result?: Record<string, unknown> };
}

export interface RestartVector {
  readonly negotiatedProtocolVersion: string;
  readonly steps: readonly [VectorStep, VectorStep, VectorStep, VectorStep];
  /** Behaviour captured beside the exchange, one sentence each (for example a host without capabilities). */
  readonly also_captured?: readonly string[];
}

/**
 * What the desk does for a host that declared neither sampling nor elicitation, as the project pins it:
 * `summarize_incident` checks first and degrades; `restart_service` does not check, asks anyway, and turns
 * the host's -32601 into an isError result (the gateway must send that host's error, never `cancel`).
 */
export const CAPABILITY_LESS_BEHAVIOUR = 'A host that declared neither sampling nor elicitation: a tool that checks the capability first degrades (answers without it); a tool that does not check returns an isError result.';

/** The revision the exchange is pinned at. */
export const VECTOR_PROTOCOL_VERSION = '2025-11-25';

/** Step 1: the host's tools/call. */
export const VECTOR_CALL = {
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 'restart_service', arguments: { service: 'payments-api' } },
} as const;

/** Step 2: the params of the server's elicitation/create (every field must match; the id is the sender's). */
export const VECTOR_ELICIT_PARAMS: Record<string, unknown> = {
  message: 'Restart payments-api? This drops in-flight requests.',
  requestedSchema: {
    type: 'object',
    properties: {
      confirm: { type: 'boolean', description: 'Tick to approve the restart' },
      ticket: { type: 'string', description: 'Change ticket number, e.g. CHG-2291' },
    },
    required: ['confirm', 'ticket'],
  },
  _meta: {},
  mode: 'form',
};

/** Step 3: the host's answer (its `result`), sent as a new POST answered 202. */
export const VECTOR_ANSWER_RESULT: Record<string, unknown> = { action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } };

/** Step 4: the final tools/call result, the last event of the call's stream. */
export const VECTOR_FINAL_RESULT: Record<string, unknown> = {
  content: [{ type: 'text', text: 'RESTARTED payments-api under CHG-2291' }],
  isError: false,
};

/** The shared vector, or undefined when this checkout has no ../shared beside it. */
export const SHARED_RESTART_VECTOR: RestartVector | undefined = existsSync(SHARED_RESTART_VECTOR_PATH)
  ? (JSON.parse(readFileSync(SHARED_RESTART_VECTOR_PATH, 'utf8')) as RestartVector)
  : undefined;
