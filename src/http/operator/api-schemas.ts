/** @module The zod schemas of the operator API's bodies and queries: the handlers validate with them and the OpenAPI document is generated from them. */

import { z } from 'zod';

import { OPEN_STATES, SETTLED_STATES } from '../../broker/question.js';
import type { QuestionMethod, QuestionState } from '../../broker/question.js';

export const QUESTION_STATES = [...OPEN_STATES, ...SETTLED_STATES] as [QuestionState, ...QuestionState[]];
export const QUESTION_METHODS = ['elicitation/create', 'sampling/createMessage', 'roots/list'] as const satisfies readonly QuestionMethod[];
/** Fails to compile when question.ts gains a method this list lacks. */
const _everyMethod: readonly (typeof QUESTION_METHODS)[number][] = [] as QuestionMethod[];
export const ANSWERER_KINDS = ['host', 'operator', 'gateway'] as const;
export const ANSWER_ACTIONS = ['accept', 'decline', 'cancel'] as const;

/** An ISO 8601 time with its offset (`Z` or `±hh:mm`); checked by Date.parse, documented as `format: date-time`. */
const isoTime = z
  .string()
  .refine((text) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(text) && Number.isFinite(Date.parse(text)), {
    message: 'must be an ISO 8601 time with an offset, e.g. 2025-06-01T12:00:00Z',
  })
  .meta({ format: 'date-time' });
const jsonObject = z.record(z.string(), z.unknown());

const answerer = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('host'), sessionId: z.string() }),
  z.object({ kind: z.literal('operator'), name: z.string() }),
  z.object({ kind: z.literal('gateway'), reason: z.string() }),
]);

export const answerRequestSchema = z
  .object({
    action: z.enum(ANSWER_ACTIONS).describe('accept answers the question; decline and cancel refuse it (sampling and roots: the upstream gets an error).'),
    content: jsonObject.optional().describe('Elicitation, form mode, accept only: the values, checked against the requestedSchema asked.'),
    result: jsonObject.optional().describe('Sampling and roots, accept only: the JSON-RPC result the upstream receives.'),
  })
  .strict()
  .meta({
    description: 'An operator\'s answer. Elicitation: {"action":"accept","content":{…}} (form), {"action":"accept"} (URL mode), {"action":"decline"}, {"action":"cancel"}. Sampling: {"action":"accept","result":{"role":"assistant","content":{"type":"text","text":"…"},"model":"operator","stopReason":"endTurn"}}.',
  });

export const questionViewSchema = z
  .looseObject({
    id: z.string().describe('Stable, unguessable id.'),
    state: z.enum(QUESTION_STATES),
    method: z.enum(QUESTION_METHODS),
    params: jsonObject.describe('The request params exactly as the upstream asked.'),
    hostParams: jsonObject.optional().describe('The form sent to the host, when it was translated for the host revision.'),
    upstream: z.string(),
    tool: z.string().optional().describe('The tool whose call asked it, as the host knows it.'),
    hostSessionId: z.string().optional(),
    principal: z.string().optional(),
    hostRevision: z.string().optional(),
    route: z.enum(['host', 'host-then-operator', 'operator', 'both']),
    audience: z.enum(['host', 'operator', 'both', 'none']),
    audienceReason: z.string().optional(),
    deadline: isoTime,
    answer: z.object({ action: z.enum(ANSWER_ACTIONS), content: jsonObject.optional(), result: jsonObject.optional() }).optional(),
    answeredBy: answerer.optional(),
    createdAt: isoTime,
    updatedAt: isoTime,
    settledAt: isoTime.optional(),
  })
  .meta({ description: 'A question, as every operator surface shows it.' });

export const auditEntrySchema = z.looseObject({
  questionId: z.string(),
  at: isoTime,
  actor: z.string().describe('host:<session>, operator:<name> or gateway.'),
  action: z.string().describe('created, delivered, answered, declined, cancelled, expired, abandoned, rejected-answer, …'),
  detail: jsonObject.optional(),
});

export const questionDetailSchema = z.looseObject({
  question: questionViewSchema,
  audit: z.array(auditEntrySchema).describe('Oldest first.'),
});

export const answeredSchema = z.looseObject({ question: questionViewSchema });

export const questionEventSchema = z
  .looseObject({ type: z.enum(['created', 'updated']), question: questionViewSchema })
  .meta({ description: 'The data of a `created` or `updated` event on /api/questions/events.' });

export const errorBodySchema = z.looseObject({
  error: z.object({
    code: z.string().describe('A code of the catalogue in docs/operator-api.md.'),
    message: z.string(),
    field: z.string().optional().describe('The offending field, parameter or answer path, when there is one.'),
  }),
  question: questionViewSchema.optional().describe('With ALREADY_SETTLED: the record as it stands.'),
});

/** The query of GET /api/questions, after `state` is split on commas and `limit` turned into a number. */
export const listQuerySchema = z
  .object({
    state: z.array(z.enum(QUESTION_STATES)).min(1).optional().describe('Repeatable, or comma-separated: state=pending,delivered.'),
    upstream: z.string().min(1).optional(),
    tool: z.string().min(1).optional(),
    answeredBy: z.enum(ANSWERER_KINDS).optional().describe('The kind of answerer.'),
    method: z.enum(QUESTION_METHODS).optional(),
    limit: z.number().int().min(1).max(1000).optional().describe('Newest first; at most this many (default 100).'),
    before: isoTime.optional().describe('Only questions created strictly before this time (paging backwards).'),
  })
  .strict();

/** The named schemas of the document's `components.schemas`. */
export const COMPONENT_SCHEMAS = {
  Question: questionViewSchema,
  QuestionDetail: questionDetailSchema,
  AuditEntry: auditEntrySchema,
  AnswerRequest: answerRequestSchema,
  Answered: answeredSchema,
  QuestionEvent: questionEventSchema,
  Error: errorBodySchema,
} as const;

export type ComponentName = keyof typeof COMPONENT_SCHEMAS;
export type QuestionView = z.output<typeof questionViewSchema>;
export type AnswerRequest = z.output<typeof answerRequestSchema>;
