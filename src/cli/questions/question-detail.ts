/** @module `switchboard questions show` as text: the record, what it asks (message, form fields, URL or sampling messages) and its audit trail. */

import type { QuestionView } from '../../edges/operator/api-schemas.js';
import type { AuditLine, QuestionDetail } from '../operator-client.js';
import { fieldHint, fieldsFromSchema } from '../terminal-form/field-prompts.js';
import { alignColumns, safeText } from '../terminal-text.js';
import { describeAnswerer } from './api-error-text.js';
import { age, shortMethod } from './question-table.js';
import { samplingLines } from './sampling-lines.js';

function recordRows(q: QuestionView, now: Date): string[][] {
  const rows: [string, string | undefined][] = [
    ['state', q.state],
    ['method', `${q.method} (${shortMethod(q)})`],
    ['upstream', q.upstream],
    ['tool', q.tool],
    ['host session', q.hostSessionId === undefined ? undefined : `${q.hostSessionId}${q.hostRevision === undefined ? '' : ` (revision ${q.hostRevision})`}`],
    ['principal', q.principal],
    ['client', q.clientName],
    ['arguments', q.arguments === undefined ? undefined : JSON.stringify(q.arguments)],
    ['approvals', q.approvals === undefined ? undefined : `${q.approvals.approvers.length} of ${q.approvals.needed}${q.approvals.approvers.map((a, i) => `${i === 0 ? ': ' : ', '}${a.name} <${a.subject}>`).join('')}`],
    ['route', `${q.route}, put to ${q.audience}${q.audienceReason === undefined ? '' : ` (${q.audienceReason})`}`],
    ['created', `${q.createdAt} (${age(q.createdAt, now)} ago)`],
    ['deadline', q.deadline],
    ['updated', q.updatedAt],
    ['settled', q.settledAt],
    ['answered by', describeAnswerer(q.answeredBy)],
    ['answer', q.answer === undefined ? undefined : JSON.stringify(q.answer)],
    ['host form', q.hostParams === undefined ? undefined : `translated for the host${q.hostRevision === undefined ? '' : ` at ${q.hostRevision}`} (see --json)`],
  ];
  return rows.filter((row): row is [string, string] => row[1] !== undefined).map(([key, value]) => [`  ${key}`, safeText(value)]);
}

function formLines(q: QuestionView): string[] {
  const fields = fieldsFromSchema(q.params.requestedSchema);
  if (fields.length === 0) return ['  (no fields)'];
  const lines: string[] = [];
  for (const field of fields) {
    const title = field.label === field.name ? '' : ` "${field.label}"`;
    lines.push(safeText(`  ${field.name}${title}: ${fieldHint(field)}`));
    if (field.description !== undefined) lines.push(safeText(`      ${field.description}`));
    if (field.choices !== undefined) lines.push(safeText(`      choices: ${field.choices.map((c, i) => `${i + 1}) ${c.value}${c.title === c.value ? '' : ` (${c.title})`}`).join(', ')}`));
    if (field.default !== undefined) lines.push(safeText(`      default: ${JSON.stringify(field.default)}`));
  }
  return lines;
}

function askedLines(q: QuestionView): string[] {
  switch (q.method) {
    case 'elicitation/create': {
      const message = typeof q.params.message === 'string' ? q.params.message : '';
      const lines = ['', 'Message', `  ${safeText(message).replace(/\n/g, '\n  ')}`];
      if (q.params.mode === 'url') return [...lines, '', 'URL', `  ${safeText(String(q.params.url))}`];
      return [...lines, '', 'Fields', ...formLines(q)];
    }
    case 'sampling/createMessage':
      return ['', 'Messages', ...samplingLines(q.params)];
    default:
      return ['', 'Asks for the host\'s roots (answer with --result \'{"roots":[…]}\')'];
  }
}

function auditRows(audit: readonly AuditLine[]): string[] {
  if (audit.length === 0) return ['  (empty)'];
  return alignColumns(audit.map((entry) => [`  ${entry.at}`, entry.actor, entry.action, entry.detail === undefined ? '' : JSON.stringify(entry.detail)].map(safeText)));
}

export function formatQuestionDetail(detail: QuestionDetail, now: Date): string {
  const q = detail.question;
  const lines = [`Question ${safeText(q.id)}`, ...alignColumns(recordRows(q, now)), ...askedLines(q), '', 'Audit trail', ...auditRows(detail.audit)];
  return `${lines.join('\n')}\n`;
}
