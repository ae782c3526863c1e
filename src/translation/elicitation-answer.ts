/**
 * @module Validates an elicitation answer (`ElicitResult`) against the `requestedSchema` it answers.
 *
 * Pure: no I/O. Semantics follow schema.ts, not schema.json: content numbers are `number`, so
 * `3.5` is valid for `type: "number"` (mcp-revisions.md §3.6). Every failure reason names the
 * field, e.g. `field "ticket": expected a string`, and never echoes the submitted value.
 *
 * Rules:
 * - `result` is an object whose `action` is "accept", "decline" or "cancel".
 * - `content` is held to {@link checkAnswerLimits} for every action; it is checked against the
 *   schema only on accept (decline/cancel may carry or omit it).
 * - With no `requestedSchema` (URL mode), an accept must not carry `content`.
 * - On accept, `content` may be omitted only if the schema has no required fields.
 * - Keys of `content` must be in `properties`; every `required` key must be present.
 * - Per field: `string` (enum / oneOf const membership, minLength/maxLength in code points,
 *   format email/uri/date/date-time), `number` (finite; minimum/maximum), `integer` (an
 *   integer; minimum/maximum), `boolean`, and `array` = multi-select `string[]` (items.enum /
 *   items.anyOf const membership, minItems/maxItems). `null` is never a valid value.
 * - Unknown `format` values are not checked (the spec defines only the four above).
 *
 * The envelope rules are written here; the field rules are a JSON Schema derived from the requested
 * one (elicitation-answer-form.ts) checked by the shared {@link JsonSchemaValidator} (ajv), whose
 * `format` checks are ajv-formats' (ajv-validator.ts). A form is compiled once per schema object
 * (and once per distinct schema text), so a schema must not be edited after it is first checked.
 */

import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { answerFormOf, contentProblem } from './elicitation-answer-form.js';
import { checkAnswerLimits } from './elicitation-limits.js';

export type ElicitAnswerVerdict = { ok: true } | { ok: false; field?: string; reason: string };

const ACTIONS: readonly string[] = ['accept', 'decline', 'cancel'];

function fail(field: string, reason: string): ElicitAnswerVerdict {
  return { ok: false, field, reason: `field ${JSON.stringify(field)}: ${reason}` };
}

/** Validates an elicitation result against the schema it answers; never throws. */
export function validateElicitAnswer(result: unknown, requestedSchema: unknown): ElicitAnswerVerdict {
  if (!isObject(result)) return { ok: false, reason: 'the elicitation result must be an object' };
  if (typeof result.action !== 'string' || !ACTIONS.includes(result.action)) {
    return fail('action', 'expected "accept", "decline" or "cancel"');
  }
  // Limits hold for every action, so an oversized decline/cancel cannot reach the upstream either.
  const limit = checkAnswerLimits(result);
  if (limit !== undefined) return { ok: false, field: 'content', reason: limit };
  if (result.action !== 'accept') return { ok: true };

  const { content } = result;
  if (requestedSchema === undefined) {
    return content === undefined ? { ok: true } : fail('content', 'not expected without a requestedSchema (URL mode)');
  }
  if (!isObject(requestedSchema) || !isObject(requestedSchema.properties)) {
    return { ok: false, reason: 'the requestedSchema is not an object schema with properties' };
  }
  const form = answerFormOf(requestedSchema as JsonObject & { properties: JsonObject });
  if (typeof form === 'string') return { ok: false, reason: `the requestedSchema cannot be checked: ${form}` };

  if (content === undefined) {
    const first = form.required[0];
    return first === undefined ? { ok: true } : fail(first, 'required, but the answer has no content');
  }
  if (!isObject(content)) return fail('content', 'expected an object');
  const problem = contentProblem(form, content);
  return problem === undefined ? { ok: true } : fail(problem.field, problem.reason);
}
