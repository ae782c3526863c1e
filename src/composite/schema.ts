/** @module The config file's schema of one composite tool (zod): its caps, its steps and their kinds, with the defaults as the file writes them. */

import { z } from 'zod';

import { COMPOSITE_DEFAULTS, ELICIT_TIMEOUT_CAP_MS } from './definition.js';
import { STEP_ID_PATTERN } from './validate.js';

/** Defaults as written in the file (before durations are normalized): COMPOSITE_DEFAULTS, in the file's units. */
export const COMPOSITE_FILE_DEFAULTS = {
  inputSchema: { type: 'object' },
  maxSteps: COMPOSITE_DEFAULTS.maxSteps,
  maxForEachItems: COMPOSITE_DEFAULTS.maxForEachItems,
  totalTimeout: '30m',
  toolTimeout: '60s',
  elicitTimeout: '5m',
  retryCount: COMPOSITE_DEFAULTS.retryCount,
  backoff: '500ms',
  concurrency: COMPOSITE_DEFAULTS.concurrency,
} as const;

/** What an elicit step does after each outcome when the step does not say. */
export const OUTCOME_DEFAULTS = { onAccept: 'continue', onDecline: 'abort', onCancel: 'abort', onTimeout: 'abort' } as const;

/** A duration field of the config file: milliseconds, or text like 500ms or 5m, read as milliseconds. */
export type DurationField = z.ZodType<number, number | string>;

/** What the config file's schema lends this one, so that composite/ imports nothing from config/. */
export interface CompositeSchemaParts {
  /** A duration field with this description; `min` 1 refuses 0. */
  duration(description: string, min: 0 | 1): DurationField;
  /** The name of an upstream, checked as the keys of `upstreams` are. */
  upstreamName: z.ZodString;
}

type Ctx = z.core.$RefinementCtx;

function issue(ctx: Ctx, message: string, path: (string | number)[] = []): void {
  ctx.addIssue({ code: 'custom', message, path });
}

/** A step's tool: `<upstream>.<tool>`, split at the first dot (upstream names have none). */
export const STEP_TOOL_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_-]*\\.[^\\s]+$';

/** A JSON Schema given inline: a map (its content is checked when the composite is validated). */
function jsonSchemaMap(description: string) {
  return z.record(z.string(), z.unknown()).meta({ description });
}

const outcomeSchema = (outcome: keyof typeof OUTCOME_DEFAULTS, what: string) =>
  z
    .enum(['continue', 'abort', 'skip-remaining'])
    .optional()
    .meta({
      description: `What happens when ${what} (elicit steps; default ${OUTCOME_DEFAULTS[outcome]}): continue, abort (the composite returns an isError result naming who answered what) or skip-remaining (no later step runs; the composite returns what it has).`,
    });

/** The keys a step of every kind may have, besides dependsOn and forEach (which only top-level steps have). */
function stepShape(parts: CompositeSchemaParts) {
  return {
    id: z
      .string()
      .regex(new RegExp(STEP_ID_PATTERN), { error: 'must be letters, digits, _ and -, starting with a letter or _ (templates name it as steps.<id>)' })
      .meta({ description: 'Names the step: unique in the composite; dependsOn and templates (steps.<id>) refer to it.' }),
    condition: z
      .string()
      .min(1)
      .optional()
      .meta({ description: 'A template; the step is skipped when it renders false, "", 0, null, an empty list or "false".' }),
    tool: z
      .string()
      .regex(new RegExp(STEP_TOOL_PATTERN), { error: 'must be <upstream>.<tool>, like desk.restart_service' })
      .optional()
      .meta({ description: 'A tool step: the upstream tool to call, as <upstream>.<tool> (the tool as the upstream names it).' }),
    arguments: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'Tool steps: the tool\'s arguments (default {}); strings are templates over input and earlier steps.' }),
    retry: z
      .strictObject({
        count: z.int().min(0).max(10).default(COMPOSITE_FILE_DEFAULTS.retryCount).meta({ description: 'Attempts after the first, 0 to 10.' }),
        backoff: parts.duration('Wait before the first retry; it doubles for each next one.', 0).prefault(COMPOSITE_FILE_DEFAULTS.backoff),
      })
      .optional()
      .meta({ description: 'Tool steps: how often a failed call is tried again, and the wait between tries.' }),
    resource: z
      .strictObject({
        upstream: parts.upstreamName.meta({ description: 'The upstream to read from (as named under upstreams).' }),
        uri: z.string().min(1).meta({ description: 'The resource URI, a template.' }),
      })
      .optional()
      .meta({ description: 'A resource step: reads a resource of an upstream (resources/read).' }),
    timeout: parts.duration(
      `Tool and resource steps: how long one attempt may take (default ${COMPOSITE_FILE_DEFAULTS.toolTimeout}). Elicit steps: how long the question waits (default ${COMPOSITE_FILE_DEFAULTS.elicitTimeout}; more than ${ELICIT_TIMEOUT_CAP_MS / 60_000}m is cut to ${ELICIT_TIMEOUT_CAP_MS / 60_000}m, with a logged warning).`,
      1,
    ).optional(),
    elicit: z
      .strictObject({
        message: z.string().min(1).meta({ description: 'The question, a template.' }),
        requestedSchema: jsonSchemaMap('The form of the answer: a flat JSON Schema object; its strings are templates.'),
      })
      .optional()
      .meta({ description: 'An elicit step: asks a person (the host, or an operator in the console, per the question route).' }),
    onAccept: outcomeSchema('onAccept', 'the question is answered (accept)'),
    onDecline: outcomeSchema('onDecline', 'the person declines'),
    onCancel: outcomeSchema('onCancel', 'the question is cancelled (dismissed)'),
    onTimeout: outcomeSchema('onTimeout', 'nobody answers in time'),
  };
}

type StepKey = keyof ReturnType<typeof stepShape>;

const TOOL_ONLY = ['arguments', 'retry'] as const;
const ELICIT_ONLY = ['onAccept', 'onDecline', 'onCancel', 'onTimeout'] as const;

/** No key of another kind than the one the step is (the caller made sure it is one). */
function refineStepKind(step: { [K in StepKey]?: unknown } & { forEach?: unknown }, ctx: Ctx): void {
  const kinds = (['tool', 'resource', 'elicit', 'forEach'] as const).filter((kind) => step[kind] !== undefined);
  if (kinds.length > 1) {
    issue(ctx, `cannot be with ${kinds[0]} (a step is one of tool, resource, elicit or forEach)`, [kinds[1] as string]);
    return;
  }
  const kind = kinds[0];
  if (kind !== 'tool') for (const key of TOOL_ONLY) if (step[key] !== undefined) issue(ctx, 'only applies to tool steps', [key]);
  if (kind !== 'elicit') for (const key of ELICIT_ONLY) if (step[key] !== undefined) issue(ctx, 'only applies to elicit steps', [key]);
  if (kind === 'forEach' && step.timeout !== undefined) issue(ctx, 'does not apply to forEach steps (set it on forEach.step)', ['timeout']);
}

/** One composite tool: its description, input and output schemas, output template, caps and steps. */
export function compositeSchema(parts: CompositeSchemaParts) {
  const { id: stepIdSchema, ...stepKeysAfterId } = stepShape(parts);

  const innerStepSchema = z
    .strictObject({
      id: stepIdSchema.optional().meta({ description: "Names the step in the run record (default: the forEach step's id)." }),
      ...stepKeysAfterId,
    })
    .superRefine((step, ctx) => {
      if (step.tool === undefined && step.resource === undefined && step.elicit === undefined) issue(ctx, 'needs one of tool, resource or elicit');
      else refineStepKind(step, ctx);
    })
    .meta({
      description: 'The tool, resource or elicit step run for each item; its templates also see item and index. No dependsOn, no forEach.',
      oneOf: [{ required: ['tool'] }, { required: ['resource'] }, { required: ['elicit'] }],
    });

  const stepSchema = z
    .strictObject({
      id: stepIdSchema,
      dependsOn: z
        .array(z.string().min(1))
        .default(() => [])
        .meta({ description: 'Ids of steps that must have finished (or been skipped) first; steps with no path between them run in parallel.' }),
      ...stepKeysAfterId,
      forEach: z
        .strictObject({
          items: z.string().min(1).meta({ description: 'A template that renders a list (from input or an earlier step).' }),
          concurrency: z.int().min(1).default(COMPOSITE_FILE_DEFAULTS.concurrency).meta({ description: 'How many items run at once.' }),
          step: innerStepSchema,
        })
        .optional()
        .meta({ description: 'A forEach step: runs its step once per item of a list; its output is the list of their outputs.' }),
    })
    .superRefine((step, ctx) => {
      if (step.tool === undefined && step.resource === undefined && step.elicit === undefined && step.forEach === undefined) {
        issue(ctx, 'needs one of tool, resource, elicit or forEach');
      } else refineStepKind(step, ctx);
    })
    .meta({
      description: 'One step: exactly one of tool, resource, elicit and forEach.',
      oneOf: [{ required: ['tool'] }, { required: ['resource'] }, { required: ['elicit'] }, { required: ['forEach'] }],
    });

  return z
    .strictObject({
      description: z.string().min(1).meta({ description: 'What the tool does, for hosts and models.' }),
      inputSchema: jsonSchemaMap('The JSON Schema (type: object) of the tool\'s arguments; templates see them as input.').default(() => ({
        ...COMPOSITE_FILE_DEFAULTS.inputSchema,
      })),
      outputSchema: jsonSchemaMap('When set, the tool\'s outputSchema (type: object); needs output.').optional(),
      output: z
        .unknown()
        .refine((value) => value !== null, { error: 'must not be empty' })
        .optional()
        .meta({ description: 'A template (string, map or list) rendered after the last step; it sees input and every step. Its value is the result.' }),
      limits: z
        .strictObject({
          maxSteps: z.int().min(1).default(COMPOSITE_FILE_DEFAULTS.maxSteps).meta({ description: 'Most steps in the composite (a forEach counts as one).' }),
          maxForEachItems: z.int().min(1).default(COMPOSITE_FILE_DEFAULTS.maxForEachItems).meta({ description: 'Most items one forEach runs; a longer list fails the step.' }),
          totalTimeout: parts.duration('The whole run, from call to result.', 1).prefault(COMPOSITE_FILE_DEFAULTS.totalTimeout),
        })
        .prefault({})
        .meta({ description: 'Caps of one run.' }),
      steps: z
        .array(stepSchema)
        .refine((steps) => steps.length > 0, { error: 'must list at least one step' })
        .meta({ description: 'The steps, in any order; dependsOn orders them.', minItems: 1 }),
    })
    .meta({ description: 'One composite tool.' });
}
