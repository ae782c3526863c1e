/** @module `switchboard questions list` as text: one aligned row per question (id, state, method, upstream, tool, age, message excerpt). */

import type { QuestionView } from '../../edges/operator/api-schemas.js';
import { isObject } from '../../protocol/jsonrpc.js';
import { contentSummary } from '../content-summary.js';
import { alignColumns, excerpt } from '../terminal-text.js';

const EXCERPT_CHARS = 60;

/** `elicitation`, `elicitation (url)`, `sampling`, `roots`. */
export function shortMethod(question: Pick<QuestionView, 'method' | 'params'>): string {
  switch (question.method) {
    case 'elicitation/create':
      return question.params.mode === 'url' ? 'elicitation (url)' : 'elicitation';
    case 'sampling/createMessage':
      return 'sampling';
    default:
      return 'roots';
  }
}

/** How long ago `iso` was, from `now`, in the largest whole unit: `42s`, `5m`, `3h`, `2d`. */
export function age(iso: string, now: Date): string {
  const seconds = Math.max(0, Math.floor((now.getTime() - Date.parse(iso)) / 1000));
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}

/** What the question says, in full: an elicitation's message, a sampling request's last message, a roots request's nature. */
export function questionText(question: Pick<QuestionView, 'method' | 'params'>): string {
  const { params } = question;
  if (question.method === 'elicitation/create') return typeof params.message === 'string' ? params.message : '';
  if (question.method === 'sampling/createMessage') {
    const messages = Array.isArray(params.messages) ? params.messages.filter(isObject) : [];
    const last = messages.at(-1);
    if (last === undefined) return '';
    const blocks = Array.isArray(last.content) ? last.content : [last.content];
    return blocks.map(contentSummary).join(' ');
  }
  return 'asks for the host\'s roots';
}

/** The table, header first; or a sentence when there is nothing to show. */
export function formatQuestionTable(questions: readonly QuestionView[], now: Date): string {
  if (questions.length === 0) return 'No questions.\n';
  const rows = questions.map((q) => [q.id, q.state, shortMethod(q), q.upstream, q.tool ?? '-', age(q.createdAt, now), excerpt(questionText(q), EXCERPT_CHARS)]);
  const safeRows = rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : excerpt(cell, 80))));
  return `${alignColumns([['ID', 'STATE', 'METHOD', 'UPSTREAM', 'TOOL', 'AGE', 'MESSAGE'], ...safeRows]).join('\n')}\n`;
}
