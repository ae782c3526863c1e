/** @module Redeeming a handle on a retry: open it, then, for a parked call, use it up in the replay ledger. */

import type { HandleRejection } from './handle-errors.js';
import type { HandleLedger } from './handle-ledger.js';
import type { HandleKeyRing } from './handle-keys.js';
import type { HandlePayload } from './handle-payload.js';
import type { HandleExpectation } from './request-state.js';
import { openHandle } from './request-state.js';

export type Redeemed = { ok: true; payload: HandlePayload; keyId: string } | { ok: false; reason: HandleRejection };

/**
 * Opens `text` against the retry in hand; a `parked` handle is then marked used in `ledger` (a
 * second redemption is `replayed`). A `wrapped` handle is not marked: the upstream owns its state's
 * semantics, and echoing state does not make it single-use in the spec. Nothing is recorded unless
 * every check passed. Never rejects, unless the ledger itself fails.
 */
export async function redeemHandle(text: unknown, keys: HandleKeyRing, expected: HandleExpectation, now: number, ledger: HandleLedger): Promise<Redeemed> {
  const opened = openHandle(text, keys, expected, now);
  return opened.ok ? useUp(opened, now, ledger) : opened;
}

/** Uses up a handle already opened (its MAC checked once, by openHandle): a parked one is marked in `ledger`. */
export async function useUp(opened: Extract<Redeemed, { ok: true }>, now: number, ledger: HandleLedger): Promise<Redeemed> {
  if (opened.payload.kind === 'wrapped') return opened;
  const mark = await ledger.markUsed(opened.payload.id, opened.payload.expiresAt, now);
  if (mark === 'replayed') return { ok: false, reason: 'replayed' };
  if (mark === 'full') return { ok: false, reason: 'ledger-full' };
  return opened;
}
