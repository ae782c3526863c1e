/**
 * @module The body of `POST /api/questions/{id}/answer` from `switchboard questions answer` flags, pure: `--content`
 * JSON, `--field name=value` coerced by the question's requestedSchema, `--text` for sampling, `--result` JSON.
 * A mistake the gateway would refuse is a UsageError here, naming the field, before anything is sent.
 */

import type { AnswerRequest, QuestionView } from '../../edges/operator/api-schemas.js';
import type { JsonObject } from '../../protocol/jsonrpc.js';
import { isObject } from '../../protocol/jsonrpc.js';
import { validateElicitAnswer } from '../../translation/elicitation-answer.js';
import { UsageError } from '../cli-io.js';
import { fieldsFromSchema, parseFieldValue } from '../terminal-form/field-prompts.js';

export interface AnswerFlags {
  /** `--content`: the elicitation content as a JSON object. */
  content?: string;
  /** `--field name=value`, repeatable. */
  fields?: readonly string[];
  /** `--text`: a sampling reply. */
  text?: string;
  /** `--result`: the JSON-RPC result as is (sampling, roots). */
  result?: string;
}

/** What to do: send this body, or ask the operator in the terminal (nothing was given on the command line). */
export type AnswerPlan = { kind: 'send'; body: AnswerRequest } | { kind: 'ask' };

const PREFIX = 'questions answer';

function usage(message: string): UsageError {
  return new UsageError(`${PREFIX}: ${message}`);
}

/** The sampling result an operator's reply becomes, as the console sends it. */
export function samplingResult(text: string): JsonObject {
  return { role: 'assistant', content: { type: 'text', text }, model: 'operator', stopReason: 'endTurn' };
}

function parseJsonObject(flag: string, text: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw usage(`${flag} is not JSON: ${(error as Error).message}`);
  }
  if (!isObject(value)) throw usage(`${flag} must be a JSON object`);
  return value;
}

/** `--field` values as content, each coerced and checked by its property schema. */
export function contentFromFields(requestedSchema: unknown, assignments: readonly string[]): JsonObject {
  const fields = fieldsFromSchema(requestedSchema);
  const content: JsonObject = {};
  for (const assignment of assignments) {
    const eq = assignment.indexOf('=');
    if (eq <= 0) throw usage(`--field ${JSON.stringify(assignment)}: write it as name=value`);
    const name = assignment.slice(0, eq);
    const field = fields.find((candidate) => candidate.name === name);
    if (field === undefined) throw usage(`--field ${JSON.stringify(name)}: the form has no such field (its fields: ${fields.map((f) => f.name).join(', ') || 'none'})`);
    if (Object.hasOwn(content, name)) throw usage(`--field ${JSON.stringify(name)} is given twice`);
    const parsed = parseFieldValue(field, assignment.slice(eq + 1));
    if (!parsed.ok) throw usage(`--field ${JSON.stringify(name)}: ${parsed.error}`);
    content[name] = parsed.value;
  }
  return content;
}

function checkedContent(question: QuestionView, content: JsonObject): AnswerRequest {
  const verdict = validateElicitAnswer({ action: 'accept', content }, question.params.requestedSchema);
  if (!verdict.ok) throw usage(`the answer does not fit the form: ${verdict.reason}`);
  return { action: 'accept', content };
}

/** The answer to send for `question`, or `ask` when the flags give none. Throws a UsageError for a flag that does not fit. */
export function planAnswer(question: QuestionView, flags: AnswerFlags): AnswerPlan {
  const given = [
    flags.content !== undefined && '--content',
    (flags.fields?.length ?? 0) > 0 && '--field',
    flags.text !== undefined && '--text',
    flags.result !== undefined && '--result',
  ].filter((flag): flag is string => flag !== false);
  if (given.length > 1) throw usage(`give one of --content, --field, --text or --result, not ${given.join(' and ')}`);
  const flag = given[0];

  switch (question.method) {
    case 'elicitation/create': {
      if (flag === '--text' || flag === '--result') throw usage(`${flag} answers a sampling or roots question; this one is an elicitation (use --content or --field)`);
      if (question.params.mode === 'url') {
        if (flag !== undefined) throw usage(`a URL-mode elicitation takes no ${flag}: answering it says the operator is done`);
        return { kind: 'send', body: { action: 'accept' } };
      }
      if (flag === '--content') return { kind: 'send', body: checkedContent(question, parseJsonObject('--content', flags.content ?? '')) };
      if (flag === '--field') return { kind: 'send', body: checkedContent(question, contentFromFields(question.params.requestedSchema, flags.fields ?? [])) };
      return { kind: 'ask' };
    }
    case 'sampling/createMessage':
      if (flag === '--content' || flag === '--field') throw usage(`${flag} answers an elicitation; this one is a sampling request (use --text)`);
      if (flag === '--text') return { kind: 'send', body: { action: 'accept', result: samplingResult(flags.text ?? '') } };
      if (flag === '--result') return { kind: 'send', body: { action: 'accept', result: parseJsonObject('--result', flags.result ?? '') } };
      return { kind: 'ask' };
    default:
      if (flag === '--result') return { kind: 'send', body: { action: 'accept', result: parseJsonObject('--result', flags.result ?? '') } };
      throw usage('a roots question is answered with --result \'{"roots":[{"uri":"file:///…"}]}\'');
  }
}
