/**
 * @module A host's answer at the desk: checked ONCE against what the host was asked, into a verdict (ok, unknown
 * id, invalid with the reason and field) that settles the question when told: an ok answer as `host-answer`, an
 * invalid one as `host-answer-refused` (real hosts answer once, so it settles now rather than at its expiry).
 */

import type { Verdict } from '../ports/host-contracts.js';
import type { Logger } from '../core/log.js';
import type { JsonRpcResponse } from '../protocol/jsonrpc.js';
import { checkHostAnswer } from '../translation/answers/answer-check.js';
import type { QuestionDesk } from './desk.js';
import type { HostSeat } from './held-question.js';
import type { Outcome } from './settle-table.js';

/** The verdict on one host answer; `settle()` ends its question with it (once; nothing for an unknown id). */
export type HostVerdict = Verdict & { settle(): void };

/** Checks `message`, a host's answer to a question of `seat`, without acting on it yet. */
export function hostVerdict(desk: QuestionDesk, seat: HostSeat, message: JsonRpcResponse, logger: Logger): HostVerdict {
  const id = typeof message.id === 'string' ? seat.keys.get(message.id) : undefined;
  const question = id === undefined ? undefined : desk.held(id);
  if (id === undefined || !question) {
    return { ok: false, kind: 'unknown', reason: `Unknown response id ${JSON.stringify(message.id)}`, settle: () => undefined };
  }
  const checked = checkHostAnswer(question.asked, message);
  let outcome: Outcome | undefined = checked.ok
    ? { kind: 'host-answer', message, checked: checked.result }
    : { kind: 'host-answer-refused', refusal: { reason: checked.reason, ...(checked.field === undefined ? {} : { field: checked.field }) } };
  const settle = (): void => {
    if (outcome === undefined) return;
    if (outcome.kind === 'host-answer-refused') logger.log('warn', `host answer to ${String(message.id)} refused: ${outcome.refusal.reason}`, { session: seat.host.id });
    const settling = outcome;
    outcome = undefined;
    void desk.settle(id, settling);
  };
  return checked.ok ? { ok: true, settle } : { ok: false, kind: 'invalid', reason: checked.reason, ...(checked.field === undefined ? {} : { field: checked.field }), settle };
}
