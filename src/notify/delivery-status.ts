/** @module The delivery status operators see, read from a question's audit trail: per target and event, how its last attempt went (sent, retrying, failed). */

import type { JsonObject } from '../protocol/jsonrpc.js';
import type { AuditEntry } from '../questions/question.js';

/** The audit actions of a delivery attempt. */
export const NOTIFY_SENT = 'notify-sent';
export const NOTIFY_FAILED = 'notify-failed';

export interface DeliveryStatus {
  target: string;
  event: string;
  eventId?: string;
  /** sent: the receiver took it; retrying: the last attempt failed and another is due; failed: given up. */
  state: 'sent' | 'retrying' | 'failed';
  /** Attempts made so far (0: dropped before any, the queue being full). */
  attempts: number;
  /** The receiver's HTTP status in the last attempt, when it answered. */
  status?: number;
  /** Why the last attempt failed. */
  error?: string;
  /** When the last attempt ended. */
  at: string;
}

function statusOf(entry: AuditEntry, detail: JsonObject): DeliveryStatus | undefined {
  const { target, event, eventId, attempt, status, error, retryInMs } = detail;
  if (typeof target !== 'string' || typeof event !== 'string') return undefined;
  const state = entry.action === NOTIFY_SENT ? 'sent' : typeof retryInMs === 'number' ? 'retrying' : 'failed';
  return {
    target,
    event,
    ...(typeof eventId === 'string' ? { eventId } : {}),
    state,
    // 0: never attempted (the queue was full).
    attempts: typeof attempt === 'number' && Number.isInteger(attempt) && attempt >= 0 ? attempt : 1,
    ...(typeof status === 'number' ? { status } : {}),
    ...(state !== 'sent' && typeof error === 'string' ? { error } : {}),
    at: entry.at,
  };
}

/** Each target's and event's latest attempt, in the order the deliveries first appear in `audit` (oldest first). */
export function deliveryStatus(audit: readonly AuditEntry[]): DeliveryStatus[] {
  const latest = new Map<string, DeliveryStatus>();
  for (const entry of audit) {
    if ((entry.action !== NOTIFY_SENT && entry.action !== NOTIFY_FAILED) || entry.detail === undefined) continue;
    const status = statusOf(entry, entry.detail);
    if (status === undefined) continue;
    const key = `${status.target}\n${status.event}`;
    // Map keeps the first insertion's place: a later attempt replaces the value, not the order.
    latest.set(key, status);
  }
  return [...latest.values()];
}
