/** @module The event document a webhook is sent: an id receivers can dedupe on, the type, the time, and the question's facts with its console link; never an answer. */

import { createHash } from 'node:crypto';

import type { NotifyEventType } from '../config/types.js';
import type { Answerer, QuestionMethod, QuestionRecord, QuestionState } from '../questions/question.js';

/** The longest message a document carries (an upstream's message may be long; the console shows all of it). */
export const MAX_MESSAGE_LENGTH = 300;

/** Who settled the question, without the host's session or the operator's verified identity. */
export type DocumentAnswerer = { kind: 'host' } | { kind: 'operator'; name: string } | { kind: 'gateway'; reason: string };

export interface EventDocument {
  /** The same for one question and event whichever attempt or instance sends it: receivers dedupe on it. */
  id: string;
  type: NotifyEventType;
  /** When the event happened (ISO). */
  time: string;
  question: {
    id: string;
    /** The question's page in the operator console, when the gateway knows its own URL. */
    url?: string;
    state: QuestionState;
    method: QuestionMethod;
    upstream: string;
    tool?: string;
    /** What the upstream asks, cut to MAX_MESSAGE_LENGTH. */
    message?: string;
    createdAt: string;
    deadline: string;
    settledAt?: string;
    answeredBy?: DocumentAnswerer;
  };
}

/** `evt_` and 32 hex digits, from the question id and the event type. */
export function eventId(questionId: string, type: NotifyEventType): string {
  return `evt_${createHash('sha256').update(`${questionId}\n${type}`, 'utf8').digest('hex').slice(0, 32)}`;
}

/** The question's page in the console under `base` (the gateway's public URL), or undefined without one. */
export function questionLink(base: string | undefined, questionId: string): string | undefined {
  return base === undefined ? undefined : `${base.replace(/\/+$/, '')}/console#question/${encodeURIComponent(questionId)}`;
}

/** `text` cut to `max` characters, an ellipsis marking the cut. */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function messageOf(record: QuestionRecord): string | undefined {
  if (record.method === 'sampling/createMessage') return 'The upstream asks for a model reply (sampling).';
  if (record.method === 'roots/list') return 'The upstream asks which roots (folders) it may work in.';
  const message = record.params['message'];
  return typeof message === 'string' && message !== '' ? cut(message, MAX_MESSAGE_LENGTH) : undefined;
}

function answererOf(by: Answerer): DocumentAnswerer {
  if (by.kind === 'host') return { kind: 'host' };
  if (by.kind === 'operator') return { kind: 'operator', name: by.name };
  return { kind: 'gateway', reason: by.reason };
}

export function eventDocument(type: NotifyEventType, record: QuestionRecord, options: { at: Date; consoleUrl?: string }): EventDocument {
  const url = questionLink(options.consoleUrl, record.id);
  const message = messageOf(record);
  return {
    id: eventId(record.id, type),
    type,
    time: options.at.toISOString(),
    question: {
      id: record.id,
      ...(url === undefined ? {} : { url }),
      state: record.state,
      method: record.method,
      upstream: record.origin.upstream,
      ...(record.origin.tool === undefined ? {} : { tool: record.origin.tool }),
      ...(message === undefined ? {} : { message }),
      createdAt: record.createdAt,
      deadline: record.deadline,
      ...(record.settledAt === undefined ? {} : { settledAt: record.settledAt }),
      ...(record.answeredBy === undefined ? {} : { answeredBy: answererOf(record.answeredBy) }),
    },
  };
}
