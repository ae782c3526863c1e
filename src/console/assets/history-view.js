// @ts-check
/** @module The history: questions filtered by upstream, tool, state, method and who answered, and the full record of one question. */

import { h, formatTime, replaceChildren, uniqueId } from './dom.js';
import { pagedList } from './paged-list.js';
import { describeAnswerer, methodName } from './question-text.js';

/**
 * @typedef {import('./api.js').Api} Api
 * @typedef {import('./api.js').Question} Question
 * @typedef {import('./api.js').AuditEntry} AuditEntry
 * @typedef {import('./api.js').QuestionDetail} QuestionDetail
 */

const PAGE = 50;

/**
 * Wires the history's filter form and table.
 * @param {{ api: Api, form: HTMLFormElement, results: HTMLElement, status: HTMLElement, more: HTMLButtonElement }} parts
 */
export function createHistory({ api, form, results, status, more }) {
  function filter() {
    const data = new FormData(form);
    /** @type {Record<string, string>} */
    const filter = {};
    for (const key of ['upstream', 'tool', 'state', 'answeredBy', 'method']) {
      const value = String(data.get(key) ?? '').trim();
      if (value !== '') filter[key] = value;
    }
    return filter;
  }

  /** @type {{ load: (append: boolean) => Promise<void> }} */
  const list = pagedList({ pageSize: PAGE, query: filter, fetchPage: (query) => api.list(query), cursorOf: (q) => q.createdAt, noun: 'question', render, status, more });
  const load = list.load;

  /** @param {Question[]} shown */
  function render(shown) {
    replaceChildren(
      results,
      shown.length === 0
        ? h('p', {}, 'No question matches.')
        : h(
            'table',
            {},
            h('caption', { class: 'visually-hidden' }, 'Questions, newest first'),
            h('thead', {}, h('tr', {}, ['Asked', 'Question', 'Upstream', 'Tool', 'State', 'Answered by'].map((title) => h('th', { scope: 'col' }, title)))),
            h(
              'tbody',
              {},
              shown.map((q) =>
                h(
                  'tr',
                  {},
                  h('td', {}, new Date(q.createdAt).toLocaleString()),
                  h('td', {}, h('a', { href: `#question/${encodeURIComponent(q.id)}` }, `${methodName(q.method)}: ${summaryOf(q)}`)),
                  h('td', {}, q.upstream),
                  h('td', {}, q.tool ?? ''),
                  h('td', {}, h('span', { class: `state state-${q.state}` }, q.state)),
                  h('td', {}, q.answeredBy ? describeAnswerer(q.answeredBy) : ''),
                ),
              ),
            ),
          ),
    );
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void load(false);
  });
  return { refresh: () => load(false) };
}

/** @param {Question} q */
function summaryOf(q) {
  const message = q.params.message;
  if (typeof message === 'string') return message.length > 80 ? `${message.slice(0, 79)}…` : message;
  return q.id;
}

/** @param {unknown} value */
const json = (value) => h('pre', { class: 'json' }, JSON.stringify(value, null, 2));

/**
 * The webhook deliveries (notify) of a question's events: each target's and event's last attempt. Nothing when none was sent.
 * @param {import('./api.js').DeliveryStatus[]} deliveries
 */
function deliveriesTable(deliveries) {
  if (deliveries.length === 0) return null;
  const headingId = uniqueId('deliveries');
  return [
    h('h3', { id: headingId }, 'Webhook deliveries'),
    h(
      'table',
      { class: 'audit', 'aria-labelledby': headingId },
      h('thead', {}, h('tr', {}, ['Target', 'Event', 'State', 'Attempts', 'HTTP status', 'Error', 'When'].map((title) => h('th', { scope: 'col' }, title)))),
      h(
        'tbody',
        {},
        deliveries.map((d) =>
          h(
            'tr',
            { 'data-state': d.state },
            [d.target, d.event, d.state, String(d.attempts), d.status === undefined ? '' : String(d.status), d.error ?? '', new Date(d.at).toLocaleString()].map((cell) => h('td', {}, cell)),
          ),
        ),
      ),
    ),
  ];
}

/**
 * The full record of a question: every fact, what was asked, what the host got, the answer, the audit trail.
 * @param {HTMLElement} container
 * @param {QuestionDetail} record
 * @param {number} skewMs
 */
export function renderDetail(container, { question: q, audit, deliveries = [], runId, runStepId }, skewMs) {
  /** @type {[string, string | undefined][]} */
  const facts = [
    ['Id', q.id],
    ['Method', q.method],
    ['State', q.state],
    ['Upstream', q.upstream],
    ['Tool', q.tool],
    ['Host session', q.hostSessionId],
    ['Principal', q.principal],
    ['Client', q.clientName],
    ['Approvals', q.approvals ? `${q.approvals.approvers.length} of ${q.approvals.needed}${q.approvals.approvers.length ? `: ${q.approvals.approvers.map((a) => `${a.name} <${a.subject}>`).join(', ')}` : ''}` : undefined],
    ['Host revision', q.hostRevision],
    ['Route', q.route],
    ['Audience', q.audienceReason ? `${q.audience} (${q.audienceReason})` : q.audience],
    ['Asked', formatTime(q.createdAt, skewMs)],
    ['Deadline', formatTime(q.deadline, skewMs)],
    ['Updated', formatTime(q.updatedAt, skewMs)],
    ['Settled', q.settledAt ? formatTime(q.settledAt, skewMs) : undefined],
    ['Answered by', q.answeredBy ? describeAnswerer(q.answeredBy) : undefined],
  ];
  replaceChildren(
    container,
    h('h2', { id: 'detail-title' }, `${methodName(q.method)} from ${q.upstream}`),
    h('p', {}, h('a', { href: '#history' }, '← History')),
    h(
      'dl',
      { class: 'facts-list' },
      facts.filter(([, value]) => value !== undefined && value !== '').flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, String(value))]),
      runId === undefined
        ? null
        : [h('dt', {}, 'Asked by run'), h('dd', {}, h('a', { href: `#run/${encodeURIComponent(runId)}` }, runStepId ? `${runId} (step ${runStepId})` : runId))],
    ),
    q.arguments === undefined ? null : [h('h3', {}, 'Arguments of the call'), json(q.arguments)],
    h('h3', {}, 'Asked (params as the upstream sent them)'),
    json(q.params),
    h('h3', {}, 'Sent to the host (translated form)'),
    q.hostParams ? json(q.hostParams) : h('p', {}, 'Not translated (or not sent to a host).'),
    h('h3', {}, 'Answer'),
    q.answer ? json(q.answer) : h('p', {}, 'No answer.'),
    deliveriesTable(deliveries),
    h('h3', {}, 'Audit trail'),
    h(
      'table',
      { class: 'audit' },
      h('thead', {}, h('tr', {}, ['When', 'Who', 'What', 'Detail'].map((title) => h('th', { scope: 'col' }, title)))),
      h(
        'tbody',
        {},
        audit.map((entry) =>
          h('tr', {}, h('td', {}, new Date(entry.at).toLocaleString()), h('td', {}, entry.actor), h('td', {}, entry.action), h('td', {}, entry.detail ? JSON.stringify(entry.detail) : '')),
        ),
      ),
    ),
  );
}
