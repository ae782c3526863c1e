/** @module Tests of the Slack incoming-webhook message: `text` for notifications, `blocks` within Slack's limits, escaped, with a button to the console. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { eventDocument } from './event-document.js';
import { slackMessage } from './slack-format.js';
import { waitingQuestion } from './testing/records.js';

const AT = new Date('2026-03-01T09:00:01.000Z');

test('a waiting question: text, a section, a context line and a button to the question in the console', () => {
  const message = slackMessage(eventDocument('question.waiting', waitingQuestion(), { at: AT, consoleUrl: 'https://gw.example.com' }));
  assert.equal(message.text, 'Question waiting for an operator: Restart payments-api? (desk, restart_service)');
  assert.deepEqual(message.blocks, [
    { type: 'section', text: { type: 'mrkdwn', text: '*Question waiting for an operator*\nRestart payments-api?' } },
    { type: 'context', elements: [{ type: 'mrkdwn', text: 'upstream `desk` · tool `restart_service` · elicitation/create · expires 2026-03-01T09:05:00.000Z · q-1' }] },
    { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open in the console' }, url: 'https://gw.example.com/console#question/q-1' }] },
  ]);
});

test('settled: says how and by whom; no button without a console URL', () => {
  const answered = slackMessage(eventDocument('question.answered', waitingQuestion({ state: 'declined', answeredBy: { kind: 'operator', name: 'Ada' } }), { at: AT }));
  assert.equal(answered.text, 'Question declined by the operator Ada: Restart payments-api? (desk, restart_service)');
  assert.equal(answered.blocks.some((block) => block.type === 'actions'), false);
  const expired = slackMessage(eventDocument('question.expired', waitingQuestion({ state: 'expired' }), { at: AT }));
  assert.match(expired.text, /^Question expired unanswered: /);
  const abandoned = slackMessage(eventDocument('question.abandoned', waitingQuestion({ state: 'abandoned', answeredBy: { kind: 'gateway', reason: 'the call was cancelled' } }), { at: AT }));
  assert.match(abandoned.text, /^Question withdrawn \(the call was cancelled\): /);
});

test('what the upstream wrote is escaped for mrkdwn (&, <, >) and cut to Slack\'s limits', () => {
  const message = slackMessage(eventDocument('question.waiting', waitingQuestion({ params: { message: '<!channel> & <https://evil|click>' } }), { at: AT }));
  assert.equal(message.text, 'Question waiting for an operator: &lt;!channel&gt; &amp; &lt;https://evil|click&gt; (desk, restart_service)');
  assert.doesNotMatch(JSON.stringify(message), /<!channel>/);
  const long = slackMessage(eventDocument('question.waiting', waitingQuestion({ origin: { upstream: 'u'.repeat(3000), tool: 't'.repeat(3000) } }), { at: AT }));
  const texts = long.blocks.flatMap((block) => ('text' in block ? [block.text.text] : block.type === 'context' ? block.elements.map((e) => e.text) : []));
  assert.ok(texts.every((text) => text.length <= 3000));
  assert.ok(long.text.length <= 3000);
});
