/**
 * @module The notifier: hears the desk's own changes, turns each into one event, and hands a delivery per target that
 * wants it to the bounded queue; each attempt is audited on the question (notify-sent, notify-failed), counted and, when
 * it fails for good, logged, never with the target's URL or secret. Its target list can be swapped live (`setTargets`).
 */

import { systemClock } from '../core/clock.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import type { NotifyEventType, NotifyTarget } from '../config/types.js';
import type { NotifyMetrics } from '../observability/notify-metrics.js';
import type { QuestionEvent } from '../questions/operator-desk.js';
import type { AuditEntry, QuestionRecord } from '../questions/question.js';
import { retryDelayMs } from './backoff.js';
import { DeliveryQueue } from './delivery-queue.js';
import type { Job } from './delivery-queue.js';
import { NOTIFY_FAILED, NOTIFY_SENT } from './delivery-status.js';
import { eventDocument } from './event-document.js';
import { notifyEventOf } from './notify-event.js';
import { signatureOf } from './signature.js';
import { slackMessage } from './slack-format.js';
import { wants } from './target-filter.js';
import { postWebhook } from './webhook-post.js';

/** Deliveries held at most (ready, in flight, waiting to retry), all targets together. */
export const DEFAULT_QUEUE_CAPACITY = 1000;
/** Attempts in flight at most. */
export const DEFAULT_CONCURRENCY = 4;
/** Events remembered as sent, so a repeat of one (a four-eyes approval re-tells a waiting question) is not sent again. */
const REMEMBERED_EVENTS = 10_000;
const USER_AGENT = 'Switchboard-Notify/1';

export interface NotifierOptions {
  targets: readonly NotifyTarget[];
  /** Appends an audit line to the question (the store's `audit`). */
  audit(entry: Omit<AuditEntry, 'at'>): Promise<void>;
  logger: Logger;
  /** The gateway's base URL as operators reach it, for the link to the question in the console. */
  consoleUrl?: string;
  metrics?: NotifyMetrics;
  clock?: Clock;
  /** The wait before the next attempt after `failed` attempts (default: exponential backoff with jitter). */
  retryDelayMs?: (failed: number, retryAfterMs: number | undefined) => number;
  capacity?: number;
  concurrency?: number;
  fetch?: typeof fetch;
}

/** What an attempt's audit line says beside the target, event and event id. */
interface NotifyDetail {
  attempt: number;
  status?: number;
  error?: string;
  retryInMs?: number;
}

/** What one delivery sends: fixed when the event happens, the same body and headers on every attempt. */
interface Prepared {
  target: NotifyTarget;
  type: NotifyEventType;
  questionId: string;
  eventId: string;
  body: string;
  headers: Record<string, string>;
}

export class Notifier {
  #options: NotifierOptions;
  #targets: readonly NotifyTarget[];
  #consoleUrl: string | undefined;
  #queue: DeliveryQueue;
  #clock: Clock;
  #sent = new Set<string>();
  #closed = false;

  constructor(options: NotifierOptions) {
    this.#options = options;
    this.#targets = options.targets;
    this.#consoleUrl = options.consoleUrl;
    this.#clock = options.clock ?? systemClock;
    this.#queue = new DeliveryQueue({ capacity: options.capacity ?? DEFAULT_QUEUE_CAPACITY, concurrency: options.concurrency ?? DEFAULT_CONCURRENCY });
  }

  /** Deliveries held now (for the queue gauge). */
  get queued(): number {
    return this.#queue.size;
  }

  /** The targets of the events from now on (a config reload); deliveries under way keep theirs. */
  setTargets(targets: readonly NotifyTarget[]): void {
    this.#targets = targets;
  }

  /** The base URL of the console links, once the gateway knows it (its listening address). */
  setConsoleUrl(url: string | undefined): void {
    this.#consoleUrl = url;
  }

  /** A change at the desk (`desk.subscribe(notifier.handle)`): queues one delivery per target that wants its event. */
  readonly handle = (change: QuestionEvent): void => {
    if (this.#closed || this.#targets.length === 0) return;
    const type = notifyEventOf(change);
    if (type === undefined) return;
    const key = `${change.question.id}\n${type}`;
    if (this.#sent.has(key)) return;
    if (this.#sent.size >= REMEMBERED_EVENTS) this.#sent.delete(this.#sent.values().next().value as string);
    this.#sent.add(key);
    const at = this.#clock.date();
    for (const target of this.#targets) {
      if (!wants(target, type, change.question)) continue;
      this.#enqueue(this.#prepare(target, type, change.question, at));
    }
  };

  #prepare(target: NotifyTarget, type: NotifyEventType, record: QuestionRecord, at: Date): Prepared {
    const document = eventDocument(type, record, { at, ...(this.#consoleUrl === undefined ? {} : { consoleUrl: this.#consoleUrl }) });
    const body = JSON.stringify(target.format === 'slack' ? slackMessage(document) : document);
    const headers: Record<string, string> = {
      ...target.headers,
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'x-switchboard-event': type,
      'x-switchboard-event-id': document.id,
      ...(target.secret === undefined ? {} : { 'x-switchboard-signature': signatureOf(body, target.secret) }),
    };
    return { target, type, questionId: record.id, eventId: document.id, body, headers };
  }

  #enqueue(prepared: Prepared): void {
    let attempt = 0;
    const job: Job = {
      run: async (signal) => {
        attempt += 1;
        const result = await postWebhook(
          { url: prepared.target.url, headers: { ...prepared.headers, 'x-switchboard-attempt': String(attempt) }, body: prepared.body, timeoutMs: prepared.target.timeoutMs },
          { now: () => this.#clock.now(), signal, ...(this.#options.fetch ? { fetch: this.#options.fetch } : {}) },
        );
        if (result.outcome === 'sent') {
          await this.#record(prepared, NOTIFY_SENT, { attempt, status: result.status }, 'sent');
          return undefined;
        }
        const status: { status?: number } = result.status === undefined ? {} : { status: result.status };
        if (result.outcome === 'retry' && attempt < prepared.target.attempts) {
          const wait = Math.round((this.#options.retryDelayMs ?? defaultDelay)(attempt, result.retryAfterMs));
          await this.#record(prepared, NOTIFY_FAILED, { attempt, ...status, error: result.error, retryInMs: wait }, 'retry');
          return wait;
        }
        await this.#failed(prepared, attempt, result.error, status);
        return undefined;
      },
      giveUp: (why) => this.#failed(prepared, attempt, why, {}),
    };
    if (this.#queue.push(job)) return;
    this.#options.metrics?.dropped(prepared.target.name);
    const why = this.#closed ? 'the gateway is stopping' : `the delivery queue is full (${this.#queue.size} held)`;
    this.#options.logger.log('warn', `webhook ${prepared.target.name}: ${prepared.type} of question ${prepared.questionId} not sent: ${why}`, { target: prepared.target.name, question: prepared.questionId });
    void this.#audit(prepared, NOTIFY_FAILED, { attempt: 0, error: why });
  }

  async #failed(prepared: Prepared, attempt: number, error: string, status: { status?: number }): Promise<void> {
    // While stopping, one line says how many were given up (close).
    if (!this.#closed) this.#options.logger.log('warn', `webhook ${prepared.target.name}: ${prepared.type} of question ${prepared.questionId} not delivered after ${attempt} attempt(s): ${error}`, {
      target: prepared.target.name,
      question: prepared.questionId,
      event: prepared.type,
      ...status,
    });
    await this.#record(prepared, NOTIFY_FAILED, { attempt, ...status, error }, 'failed');
  }

  async #record(prepared: Prepared, action: string, detail: NotifyDetail, outcome: 'sent' | 'retry' | 'failed'): Promise<void> {
    this.#options.metrics?.attempt(prepared.target.name, prepared.type, outcome);
    await this.#audit(prepared, action, detail);
  }

  async #audit(prepared: Prepared, action: string, detail: NotifyDetail): Promise<void> {
    try {
      await this.#options.audit({
        questionId: prepared.questionId,
        actor: 'gateway',
        action,
        detail: { target: prepared.target.name, event: prepared.type, eventId: prepared.eventId, ...detail },
      });
    } catch (error) {
      this.#options.logger.log('warn', `could not audit a webhook delivery of question ${prepared.questionId}`, { target: prepared.target.name, error: error instanceof Error ? error.message : String(error) });
    }
  }

  /** Takes no more events; lets deliveries end for at most `flushMs`, then gives up the rest with one logged line. */
  async close(flushMs: number): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const gaveUp = await this.#queue.close(flushMs);
    if (gaveUp > 0) this.#options.logger.log('warn', `shutting down: gave up ${gaveUp} webhook deliver${gaveUp === 1 ? 'y' : 'ies'} not yet delivered`, { flushMs });
  }
}

function defaultDelay(failed: number, retryAfterMs: number | undefined): number {
  return retryDelayMs(failed, Math.random, retryAfterMs);
}
