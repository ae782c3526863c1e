/** @module Question routing: the gateway-wide `questions` section, and the per-upstream and per-tool overrides that fall back to it. */

import { z } from 'zod';

import { duration } from './fields.js';

/** Defaults as written in the file (before durations are normalized). */
const DEFAULTS = {
  route: 'host-then-operator',
  questionTimeout: '5m',
  samplingAnswerer: 'host',
  consentAnswerer: 'host',
} as const;

const routeSchema = z
  .enum(['host', 'host-then-operator', 'operator', 'both'])
  .meta({
    description:
      'Who answers questions (elicitation, sampling, roots): host (the host only; cancel if it cannot), host-then-operator (the host when it can receive the question, else an operator), operator (always a person), both (first answer wins).',
  });


/** Per-upstream and per-tool question settings: each field falls back to the level above. */
const questionOverrideSchema = z
  .strictObject({
    route: routeSchema.optional(),
    timeout: duration('How long a question may wait for an answer before it expires (the upstream gets cancel).', 1).optional(),
  })
  .meta({ description: 'Question routing for one tool of this upstream (falls back to the upstream, then the gateway).' });

/** An upstream's `questions`: its route and timeout, and per tool of it. */
export const upstreamQuestionsSchema = z
  .strictObject({
    route: routeSchema.optional(),
    timeout: duration('How long a question may wait for an answer before it expires (the upstream gets cancel).', 1).optional(),
    tools: z
      .record(z.string().min(1), questionOverrideSchema)
      .optional()
      .meta({ description: 'Per tool (by the upstream\'s own tool name): route and timeout for questions asked during its calls.' }),
  })
  .meta({ description: 'Question routing for this upstream (falls back to the gateway-wide questions settings).' });

/** Per tool (by the name hosts see), gateway-wide: how many operators must accept before its questions settle. */
const gatewayToolQuestionsSchema = z
  .strictObject({
    approvers: z
      .int()
      .min(1)
      .max(5)
      .default(1)
      .meta({ description: 'Four-eyes: an operator\'s accept settles the question only once this many different operators have accepted (a decline by any of them settles it). Hosts cannot answer such a question.' }),
  })
  .meta({ description: 'Question settings for one tool, by the name hosts see.' });

export const questionsSchema = z
  .strictObject({
    route: routeSchema.default(DEFAULTS.route),
    tools: z
      .record(z.string().min(1), gatewayToolQuestionsSchema)
      .default(() => ({}))
      .meta({ description: 'Per tool, by the name hosts see (`desk_restart_service`): the approvals its questions need.' }),
    timeout: duration('How long a question may wait for an answer before it expires (the upstream gets cancel).', 1).prefault(DEFAULTS.questionTimeout),
    sampling: z
      .enum(['host', 'operator'])
      .default(DEFAULTS.samplingAnswerer)
      .meta({
        description:
          'host: an upstream is promised sampling and roots only when the host declared them. operator: sampling is also promised for hosts that cannot sample, and an operator types the reply.',
      }),
    consent: z
      .enum(['host', 'operator'])
      .default(DEFAULTS.consentAnswerer)
      .meta({
        description:
          'host: consent questions (URL mode, password-like fields, a lone approval) go to the host whenever it can take them. operator: they always go to an operator (for autonomous hosts with no person behind them).',
      }),
  })
  .meta({ description: 'What happens to the questions upstreams ask back: who answers, and how long they wait.' });
