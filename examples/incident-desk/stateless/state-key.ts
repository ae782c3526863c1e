/** @module incident-desk/stateless/state-key: the HMAC key for requestState: from INCIDENT_DESK_STATE_KEY, or random per process. */
import { randomBytes } from 'node:crypto';

export const STATE_KEY_ENV = 'INCIDENT_DESK_STATE_KEY';
const MIN_KEY_BYTES = 32;

export class StateKeyError extends Error {
  override readonly name = 'StateKeyError';
}

/**
 * The key from the environment when set (so several desks, or a restarted one, accept each other's
 * states), else 32 random bytes: then only this process can verify what it minted.
 */
export function stateKeyFromEnv(env: NodeJS.ProcessEnv = process.env): Uint8Array | string {
  const configured = env[STATE_KEY_ENV];
  if (configured === undefined || configured === '') return randomBytes(MIN_KEY_BYTES);
  if (Buffer.byteLength(configured, 'utf8') < MIN_KEY_BYTES) {
    throw new StateKeyError(`${STATE_KEY_ENV} must be at least ${MIN_KEY_BYTES} bytes long`);
  }
  return configured;
}
