/** @module `questions answer` flags → the answer body, or a usage error naming the flag or field. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { UsageError } from '../cli-io.js';
import type { AnswerFlags, AnswerPlan } from './answer-body.js';
import { planAnswer } from './answer-body.js';
import { RESTART_QUESTION, ROOTS_QUESTION, SAMPLING_QUESTION, URL_QUESTION } from '../testing/question-fixtures.js';

const sends = (body: unknown): AnswerPlan => ({ kind: 'send', body } as AnswerPlan);

describe('planAnswer', () => {
  const accepted: [string, Parameters<typeof planAnswer>[0], AnswerFlags, AnswerPlan][] = [
    ['--content as given', RESTART_QUESTION, { content: '{"confirm":true,"ticket":"CHG-2291"}' }, sends({ action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } })],
    [
      '--field values coerced by the schema',
      RESTART_QUESTION,
      { fields: ['confirm=y', 'ticket=CHG-2291', 'replicas=3', 'teams=db,Network'] },
      sends({ action: 'accept', content: { confirm: true, ticket: 'CHG-2291', replicas: 3, teams: ['db', 'net'] } }),
    ],
    ['--field keeps everything after the first =', RESTART_QUESTION, { fields: ['confirm=no', 'ticket=a=b'] }, sends({ action: 'accept', content: { confirm: false, ticket: 'a=b' } })],
    ['nothing for a form: ask', RESTART_QUESTION, {}, { kind: 'ask' }],
    ['nothing for a URL-mode elicitation: done', URL_QUESTION, {}, sends({ action: 'accept' })],
    [
      '--text for sampling',
      SAMPLING_QUESTION,
      { text: 'All quiet.' },
      sends({ action: 'accept', result: { role: 'assistant', content: { type: 'text', text: 'All quiet.' }, model: 'operator', stopReason: 'endTurn' } }),
    ],
    ['--result for sampling, as is', SAMPLING_QUESTION, { result: '{"role":"assistant","content":{"type":"text","text":"x"},"model":"m"}' }, sends({ action: 'accept', result: { role: 'assistant', content: { type: 'text', text: 'x' }, model: 'm' } })],
    ['nothing for sampling: ask', SAMPLING_QUESTION, {}, { kind: 'ask' }],
    ['--result for roots', ROOTS_QUESTION, { result: '{"roots":[{"uri":"file:///srv"}]}' }, sends({ action: 'accept', result: { roots: [{ uri: 'file:///srv' }] } })],
  ];
  for (const [name, question, flags, plan] of accepted) {
    it(name, () => assert.deepEqual(planAnswer(question, flags), plan));
  }

  const refused: [string, Parameters<typeof planAnswer>[0], AnswerFlags, RegExp][] = [
    ['--content and --field together', RESTART_QUESTION, { content: '{}', fields: ['confirm=y'] }, /give one of --content, --field, --text or --result, not --content and --field/],
    ['--content that is not JSON', RESTART_QUESTION, { content: '{ticket:1}' }, /--content is not JSON/],
    ['--content that is an array', RESTART_QUESTION, { content: '[1]' }, /--content must be a JSON object/],
    ['--content missing a required field', RESTART_QUESTION, { content: '{"confirm":true}' }, /the answer does not fit the form: field "ticket": required/],
    ['--content with a field the form lacks', RESTART_QUESTION, { content: '{"confirm":true,"ticket":"x","extra":1}' }, /field "extra": not in the requested schema/],
    ['--field without =', RESTART_QUESTION, { fields: ['confirm'] }, /--field "confirm": write it as name=value/],
    ['--field naming no field', RESTART_QUESTION, { fields: ['tciket=x'] }, /--field "tciket": the form has no such field \(its fields: confirm, ticket, replicas, teams\)/],
    ['--field given twice', RESTART_QUESTION, { fields: ['ticket=a', 'ticket=b'] }, /--field "ticket" is given twice/],
    ['--field with a value its type refuses', RESTART_QUESTION, { fields: ['confirm=y', 'ticket=x', 'replicas=9'] }, /--field "replicas": expected a value of at most 5/],
    ['--field leaving a required field out', RESTART_QUESTION, { fields: ['confirm=y'] }, /field "ticket": required/],
    ['--text for a form', RESTART_QUESTION, { text: 'hi' }, /--text answers a sampling or roots question; this one is an elicitation/],
    ['--content for a URL-mode elicitation', URL_QUESTION, { content: '{}' }, /a URL-mode elicitation takes no --content/],
    ['--field for sampling', SAMPLING_QUESTION, { fields: ['a=b'] }, /--field answers an elicitation; this one is a sampling request \(use --text\)/],
    ['nothing for roots', ROOTS_QUESTION, {}, /a roots question is answered with --result/],
  ];
  for (const [name, question, flags, message] of refused) {
    it(`refuses ${name}`, () => {
      assert.throws(() => planAnswer(question, flags), (error: unknown) => error instanceof UsageError && message.test(error.message) && error.message.startsWith('questions answer: '));
    });
  }
});
