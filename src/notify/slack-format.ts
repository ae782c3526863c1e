/** @module The Slack incoming-webhook message for an event: `text` (the notification line) and `blocks` (a section, a context line, a button to the console), escaped and within Slack's limits. */

import type { DocumentAnswerer, EventDocument } from './event-document.js';
import { cut } from './event-document.js';

/** Slack's limit on a section's or a context element's text, and on `text` as this module uses it. */
const MAX_TEXT = 3000;
/** Slack's limit on a button's URL. */
const MAX_BUTTON_URL = 3000;

export type SlackBlock =
  | { type: 'section'; text: { type: 'mrkdwn'; text: string } }
  | { type: 'context'; elements: { type: 'mrkdwn'; text: string }[] }
  | { type: 'actions'; elements: { type: 'button'; text: { type: 'plain_text'; text: string }; url: string }[] };

export interface SlackMessage {
  text: string;
  blocks: SlackBlock[];
}

/** Escapes what Slack reads as markup in text from elsewhere (an upstream's message, names). */
export function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function by(answerer: DocumentAnswerer | undefined): string {
  if (answerer?.kind === 'operator') return ` by the operator ${answerer.name}`;
  if (answerer?.kind === 'host') return ' by its host';
  return '';
}

/** The headline of an event, as a person reads it. */
function headline(document: EventDocument): string {
  const { question } = document;
  switch (document.type) {
    case 'question.waiting':
      return 'Question waiting for an operator';
    case 'question.answered':
      return `Question ${question.state}${by(question.answeredBy)}`;
    case 'question.expired':
      return 'Question expired unanswered';
    case 'question.abandoned':
      return `Question withdrawn${question.answeredBy?.kind === 'gateway' ? ` (${question.answeredBy.reason})` : ''}`;
  }
}

export function slackMessage(document: EventDocument): SlackMessage {
  const { question } = document;
  const title = slackEscape(headline(document));
  const asked = slackEscape(question.message ?? question.method);
  const where = [question.upstream, ...(question.tool === undefined ? [] : [question.tool])].map(slackEscape).join(', ');
  const facts = [
    `upstream \`${slackEscape(question.upstream)}\``,
    ...(question.tool === undefined ? [] : [`tool \`${slackEscape(question.tool)}\``]),
    question.method,
    document.type === 'question.waiting' ? `expires ${question.deadline}` : `settled ${question.settledAt ?? document.time}`,
    slackEscape(question.id),
  ].join(' · ');
  const blocks: SlackBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: cut(`*${title}*\n${asked}`, MAX_TEXT) } },
    { type: 'context', elements: [{ type: 'mrkdwn', text: cut(facts, MAX_TEXT) }] },
  ];
  if (question.url !== undefined && question.url.length <= MAX_BUTTON_URL) {
    blocks.push({ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open in the console' }, url: question.url }] });
  }
  return { text: cut(`${title}: ${asked} (${where})`, MAX_TEXT), blocks };
}
