/** @module The zod schemas of the operator API's bodies and queries: the handlers validate with them and the OpenAPI document is generated from them. */

// From @hono/zod-openapi: its z is zod extended with .openapi(), which must happen before any schema here is built.
import { z } from '@hono/zod-openapi';

import { OPEN_STATES, SETTLED_STATES } from '../../questions/question.js';
import type { QuestionMethod, QuestionState } from '../../questions/question.js';
import type { RunState, StepRecord, StepState } from '../../composite/run-record.js';

export const QUESTION_STATES = [...OPEN_STATES, ...SETTLED_STATES] as [QuestionState, ...QuestionState[]];
export const QUESTION_METHODS = ['elicitation/create', 'sampling/createMessage', 'roots/list'] as const satisfies readonly QuestionMethod[];
/** Fails to compile when question.ts gains a method this list lacks. */
const _everyMethod: readonly (typeof QUESTION_METHODS)[number][] = [] as QuestionMethod[];
export const ANSWERER_KINDS = ['host', 'operator', 'gateway'] as const;
export const ANSWER_ACTIONS = ['accept', 'decline', 'cancel'] as const;
export const RUN_STATES = ['running', 'completed', 'aborted', 'failed', 'timed-out'] as const satisfies readonly RunState[];
export const STEP_STATES = ['pending', 'running', 'completed', 'skipped', 'failed', 'aborted'] as const satisfies readonly StepState[];
export const STEP_KINDS = ['tool', 'resource', 'elicit', 'forEach'] as const satisfies readonly StepRecord['kind'][];
export const STEP_OUTCOMES = ['accept', 'decline', 'cancel', 'timeout'] as const satisfies readonly NonNullable<StepRecord['outcome']>[];
/** Fail to compile when run-record.ts gains a state, kind or outcome these lists lack. */
const _everyRunState: readonly (typeof RUN_STATES)[number][] = [] as RunState[];
const _everyStepState: readonly (typeof STEP_STATES)[number][] = [] as StepState[];
const _everyStepKind: readonly (typeof STEP_KINDS)[number][] = [] as StepRecord['kind'][];
const _everyOutcome: readonly (typeof STEP_OUTCOMES)[number][] = [] as NonNullable<StepRecord['outcome']>[];

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
  z.object({
    kind: z.literal('operator'),
    name: z.string(),
    subject: z.string().optional().describe('A verified operator\'s subject at the OpenID provider (absent for the shared token\'s label).'),
    issuer: z.string().optional().describe('The OpenID provider that verified them.'),
  }),
  z.object({ kind: z.literal('gateway'), reason: z.string() }),
]);

export const approvalStateSchema = z
  .object({
    needed: z.number().int().min(2).describe('How many different operators must accept (questions.tools.<tool>.approvers).'),
    approvers: z
      .array(z.object({ name: z.string(), subject: z.string(), issuer: z.string(), at: isoTime }))
      .describe('Who approved so far, each operator once, oldest first.'),
  })
  .meta({ id: 'ApprovalState', description: 'A four-eyes question\'s approvals: it settles when `needed` different operators have accepted.' });

export const answerRequestSchema = z
  .object({
    action: z.enum(ANSWER_ACTIONS).describe('accept answers the question; decline and cancel refuse it (sampling and roots: the upstream gets an error).'),
    content: jsonObject.optional().describe('Elicitation, form mode, accept only: the values, checked against the requestedSchema asked.'),
    result: jsonObject.optional().describe('Sampling and roots, accept only: the JSON-RPC result the upstream receives.'),
  })
  .strict()
  .meta({
    id: 'AnswerRequest',
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
    principal: z.string().optional().describe('Who the host is, when the edge verified it: name, subject and issuer.'),
    clientName: z.string().optional().describe('The host\'s client name (clientInfo.name).'),
    arguments: jsonObject.optional().describe('The arguments of the tool call that asked, secret-looking fields redacted.'),
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
    approvals: approvalStateSchema.optional(),
  })
  .meta({ id: 'Question', description: 'A question, as every operator surface shows it.' });

export const auditEntrySchema = z
  .looseObject({
    questionId: z.string(),
    at: isoTime,
    actor: z.string().describe('host:<session>, operator:<name> or gateway.'),
    action: z.string().describe('created, delivered, answered, declined, cancelled, expired, abandoned, rejected-answer, …'),
    detail: jsonObject.optional(),
  })
  .meta({ id: 'AuditEntry' });

export const deliveryStatusSchema = z
  .looseObject({
    target: z.string().describe('The webhook target\'s name (notify[].name); its URL is never shown.'),
    event: z.string().describe('question.waiting, question.answered, question.expired or question.abandoned.'),
    eventId: z.string().optional().describe('The id the receiver got in the document and X-Switchboard-Event-Id.'),
    state: z.enum(['sent', 'retrying', 'failed']).describe('sent: the receiver took it (2xx); retrying: the last attempt failed and another is due; failed: given up.'),
    attempts: z.number().int().min(0).describe('Attempts made (0: dropped, the delivery queue being full).'),
    status: z.number().int().optional().describe('The receiver\'s HTTP status in the last attempt, when it answered.'),
    error: z.string().optional().describe('Why the last attempt failed.'),
    at: isoTime.describe('When the last attempt ended.'),
  })
  .meta({ id: 'DeliveryStatus', description: 'A webhook delivery of one event to one target (notify), as its last attempt left it.' });

export const questionDetailSchema = z.looseObject({
  question: questionViewSchema,
  audit: z.array(auditEntrySchema).describe('Oldest first.'),
  deliveries: z.array(deliveryStatusSchema).optional().describe('Webhook deliveries (notify) of this question\'s events, per target and event, read from the audit trail (notify-sent, notify-failed lines); the instance that sent each wrote them.'),
  runId: z.string().optional().describe('The composite run whose step asked this question (GET /api/runs/{runId}), when a composite asked it.'),
  runStepId: z.string().optional().describe('The step of that run that asked it.'),
}).meta({ id: 'QuestionDetail' });

export const answeredSchema = z
  .looseObject({
    question: questionViewSchema,
    state: z.literal('awaiting-approval').optional().describe('Only on 202: the accept was recorded as an approval; the question stays open.'),
    approvals: z.number().int().min(1).optional().describe('On 202: approvals so far.'),
    needed: z.number().int().min(2).optional().describe('On 202: approvals it needs.'),
  })
  .meta({ id: 'Answered', description: '200: the settled question. 202 (four-eyes): the approval recorded, `state: awaiting-approval`, with `approvals` of `needed`.' });

export const sessionSchema = z
  .looseObject({
    issuer: z.string().describe('Who verified the operator: the OpenID provider, or `operator-token` for the shared token.'),
    subject: z.string(),
    name: z.string(),
    groups: z.array(z.string()),
    via: z.enum(['session', 'bearer', 'token']).describe('How this request was authenticated: the console\'s session cookie, an access token, the shared operator token.'),
    csrf: z.string().optional().describe('With the session cookie: the token every state-changing request must send as X-CSRF-Token.'),
    expiresAt: isoTime.optional().describe('With the session cookie: when the sign-in ends.'),
  })
  .meta({ id: 'Session', description: 'The operator this request is authenticated as.' });

export const authMethodsSchema = z
  .looseObject({
    oidc: z.boolean().describe('Whether operators sign in with OpenID Connect (GET /console/login).'),
    token: z.boolean().describe('Whether the shared operator token is accepted from this client.'),
    signIn: z.string().optional().describe('Where the console sends a person to sign in.'),
  })
  .meta({ id: 'AuthMethods', description: 'Which sign-ins the console offers this client; needs no credential.' });

export const questionEventSchema = z
  .looseObject({ type: z.enum(['created', 'updated']), question: questionViewSchema })
  .meta({ id: 'QuestionEvent', description: 'The data of a `created` or `updated` event on /api/questions/events.' });

export const stepSchema = z
  .looseObject({
    id: z.string().describe('The step id; forEach items are `<id>[<index>]`.'),
    kind: z.enum(STEP_KINDS),
    state: z.enum(STEP_STATES),
    startedAt: isoTime.optional(),
    finishedAt: isoTime.optional(),
    attempts: z.number().int().min(0).optional().describe('Tool steps: attempts made (retries included).'),
    reason: z.string().optional().describe('Why it was skipped, failed or aborted.'),
    outcome: z.enum(STEP_OUTCOMES).optional().describe('Elicit steps: how the question ended.'),
    answer: jsonObject.optional().describe('Elicit steps: the answer content.'),
    questionId: z.string().optional().describe('The desk question it asked (GET /api/questions/{questionId}).'),
    output: z.unknown().optional().describe('What later steps\' templates see of this step.'),
  })
  .meta({ id: 'RunStep', description: 'One step of a composite run.' });

export const runSchema = z
  .looseObject({
    id: z.string().describe('Stable, unguessable id.'),
    composite: z.string().describe('The composite tool\'s name.'),
    hostSessionId: z.string().describe('The host session that called it.'),
    principal: z.string().optional().describe('The verified principal of the host that called it (absent when hosts do not authenticate).'),
    state: z.enum(RUN_STATES),
    input: jsonObject.describe('The arguments the host called it with.'),
    steps: z.array(stepSchema).describe('In definition order; forEach items follow their step.'),
    summary: z.string().optional().describe('The result the host got (its text), or why the run failed.'),
    startedAt: isoTime,
    finishedAt: isoTime.optional(),
  })
  .meta({ id: 'Run', description: 'A composite run: every step with its timings, outcome, answer and output.' });

export const runSummarySchema = z
  .looseObject({
    id: z.string(),
    composite: z.string(),
    hostSessionId: z.string(),
    principal: z.string().optional(),
    state: z.enum(RUN_STATES),
    summary: z.string().optional(),
    startedAt: isoTime,
    finishedAt: isoTime.optional(),
    durationMs: z.number().int().min(0).optional().describe('finishedAt − startedAt, once finished.'),
    steps: z.number().int().min(0).describe('How many steps the record holds.'),
    stepStates: z.partialRecord(z.enum(STEP_STATES), z.number().int().min(1)).describe('How many steps are in each state (states with none left out).'),
    questionIds: z.array(z.string()).describe('The desk questions its steps asked.'),
  })
  .meta({ id: 'RunSummary', description: 'A composite run as GET /api/runs lists it: the run without its steps\' details.' });

export const errorBodySchema = z.looseObject({
  error: z.object({
    code: z.string().describe('A code of the catalogue in docs/operator-api.md.'),
    message: z.string(),
    field: z.string().optional().describe('The offending field, parameter or answer path, when there is one.'),
  }),
  // A description here would make the generator inline Question instead of referring to it: the schema's says it.
  question: questionViewSchema.optional(),
}).meta({ id: 'Error', description: 'An error of the catalogue in docs/operator-api.md; `question` comes with ALREADY_SETTLED: the record as it stands.' });

/** How the OpenAPI document describes a repeatable query parameter (`state=a&state=b`). */
const REPEATABLE = { param: { style: 'form', explode: true } } as const;

/** The query of GET /api/questions, after `state` is split on commas and `limit` turned into a number. */
export const listQuerySchema = z
  .object({
    state: z.array(z.enum(QUESTION_STATES)).min(1).optional().describe('Repeatable, or comma-separated: state=pending,delivered.').meta(REPEATABLE),
    upstream: z.string().min(1).optional(),
    tool: z.string().min(1).optional(),
    answeredBy: z.enum(ANSWERER_KINDS).optional().describe('The kind of answerer.'),
    method: z.enum(QUESTION_METHODS).optional(),
    limit: z.number().int().min(1).max(1000).optional().describe('Newest first; at most this many (default 100).'),
    before: isoTime.optional().describe('Only questions created strictly before this time (paging backwards).'),
  })
  .strict();

/** The query of GET /api/runs, after `state` is split on commas and `limit` turned into a number. */
export const runListQuerySchema = z
  .object({
    state: z.array(z.enum(RUN_STATES)).min(1).optional().describe('Repeatable, or comma-separated: state=completed,failed.').meta(REPEATABLE),
    composite: z.string().min(1).optional().describe('The composite tool\'s name, exactly.'),
    limit: z.number().int().min(1).max(1000).optional().describe('Newest first; at most this many (default 100).'),
    before: isoTime.optional().describe('Only runs started strictly before this time (paging backwards).'),
  })
  .strict();

/** The named schemas of the document's `components.schemas` (each carries its name as its zod `id`). */
export const COMPONENT_SCHEMAS = {
  Question: questionViewSchema,
  QuestionDetail: questionDetailSchema,
  AuditEntry: auditEntrySchema,
  DeliveryStatus: deliveryStatusSchema,
  AnswerRequest: answerRequestSchema,
  Answered: answeredSchema,
  ApprovalState: approvalStateSchema,
  Session: sessionSchema,
  AuthMethods: authMethodsSchema,
  QuestionEvent: questionEventSchema,
  Run: runSchema,
  RunStep: stepSchema,
  RunSummary: runSummarySchema,
  Error: errorBodySchema,
} as const;

export type ComponentName = keyof typeof COMPONENT_SCHEMAS;
export type QuestionView = z.output<typeof questionViewSchema>;
export type AnswerRequest = z.output<typeof answerRequestSchema>;
export type RunView = z.output<typeof runSchema>;
export type RunSummaryView = z.output<typeof runSummarySchema>;
