/**
 * @module An elicitation asked in the terminal: the message, one prompt per field (re-asked until the value is valid),
 * then accept, decline or cancel. End of input at any prompt answers cancel. The final content is checked against
 * the requestedSchema with the gateway's own rules before it is returned.
 */

import type { JsonObject } from '../../protocol/jsonrpc.js';
import { validateElicitAnswer } from '../../translation/elicitation-answer.js';
import { checkRequestedSchema } from '../../translation/elicitation-schema.js';
import { safeText } from '../terminal-text.js';
import type { FieldPrompt } from './field-prompts.js';
import { answerField, fieldLines, fieldsFromSchema, promptText } from './field-prompts.js';
import type { FormAction } from './form-action.js';
import { ACTION_PROMPT, parseAction } from './form-action.js';
import type { Prompter } from './line-prompter.js';

export interface ElicitAnswer {
  action: FormAction;
  content?: JsonObject;
}

const CANCEL: ElicitAnswer = { action: 'cancel' };

/** Asks accept/decline/cancel until one is chosen; undefined at the end of input. */
export async function askAction(prompter: Prompter, prompt = ACTION_PROMPT): Promise<FormAction | undefined> {
  for (;;) {
    const line = await prompter.ask(prompt);
    if (line === undefined) return undefined;
    const action = parseAction(line);
    if (action !== undefined) return action;
    prompter.say('  ! type a (accept), d (decline) or c (cancel)\n');
  }
}

/** Asks one field until its answer is valid: the value (undefined: left out), or `cancel` at the end of input. */
async function askField(field: FieldPrompt, prompter: Prompter): Promise<{ value: unknown } | 'cancel'> {
  prompter.say(`${fieldLines(field).map(safeText).join('\n')}\n`);
  for (;;) {
    const line = await prompter.ask(safeText(promptText(field)));
    if (line === undefined) return 'cancel';
    const answer = answerField(field, line);
    if (answer.ok) return { value: answer.value };
    prompter.say(`  ! ${safeText(answer.error)}\n`);
  }
}

/** The fields' content, or undefined at the end of input. */
async function askFields(fields: readonly FieldPrompt[], prompter: Prompter): Promise<JsonObject | undefined> {
  const content: JsonObject = {};
  for (const field of fields) {
    const answer = await askField(field, prompter);
    if (answer === 'cancel') return undefined;
    if (answer.value !== undefined) content[field.name] = answer.value;
  }
  return content;
}

/** Asks an `elicitation/create` (its params) in the terminal; resolves with the answer to send. */
export async function askElicitation(params: JsonObject, prompter: Prompter): Promise<ElicitAnswer> {
  const message = typeof params.message === 'string' ? params.message : '';
  prompter.say(`\n${safeText(message)}\n`);
  if (params.mode === 'url') {
    prompter.say(`Open this URL and finish there: ${safeText(String(params.url))}\n`);
    const action = await askAction(prompter, 'Done (accept), decline or cancel? [a/d/c] > ');
    return action === undefined ? CANCEL : { action };
  }
  const problem = checkRequestedSchema(params);
  if (problem !== undefined) {
    prompter.say(`This form cannot be shown (${safeText(problem.path)} ${safeText(problem.reason)}): answering cancel.\n`);
    return CANCEL;
  }
  const fields = fieldsFromSchema(params.requestedSchema);
  for (;;) {
    const content = await askFields(fields, prompter);
    if (content === undefined) return CANCEL;
    const action = await askAction(prompter);
    if (action === undefined) return CANCEL;
    if (action !== 'accept') return { action };
    const verdict = validateElicitAnswer({ action, content }, params.requestedSchema);
    if (verdict.ok) return { action, content };
    prompter.say(`  ! ${safeText(verdict.reason)}: the form starts again\n`);
  }
}
