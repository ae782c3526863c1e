// @ts-check
/** @module The Runs view: composite runs filtered by composite and state, newest first, and one run with every step. */

import { formatTime, h, replaceChildren } from './dom.js';
import { pagedList } from './paged-list.js';

/**
 * @typedef {import('./api.js').Api} Api
 * @typedef {import('./api.js').Run} Run
 * @typedef {import('./api.js').RunStep} RunStep
 * @typedef {import('./api.js').RunSummary} RunSummary
 */

const PAGE = 50;

/**
 * A span of time as a person reads it: 850 ms, 42.5 s, 3 min 5 s, 1 h 2 min.
 * @param {number | undefined} ms
 */
export function formatDuration(ms) {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(Math.round(ms / 100) / 10).toString()} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * The time between two ISO times, or undefined when either is missing.
 * @param {string | undefined} from
 * @param {string | undefined} to
 */
function between(from, to) {
  if (!from || !to) return undefined;
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) ? ms : undefined;
}

/** @param {string} state */
const stateBadge = (state) => h('span', { class: `state state-${state}` }, state);

/** @param {string} iso */
const localTime = (iso) => new Date(iso).toLocaleString();

/**
 * Wires the Runs view's filter form and table. `refresh` reloads the first page with the current filters.
 * @param {{ api: Api, form: HTMLFormElement, results: HTMLElement, status: HTMLElement, more: HTMLButtonElement }} parts
 */
export function createRuns({ api, form, results, status, more }) {
  function filter() {
    const data = new FormData(form);
    /** @type {Record<string, string>} */
    const query = {};
    for (const key of ['composite', 'state']) {
      const value = String(data.get(key) ?? '').trim();
      if (value !== '') query[key] = value;
    }
    return query;
  }

  /** @type {{ load: (append: boolean) => Promise<void> }} */
  const list = pagedList({ pageSize: PAGE, query: filter, fetchPage: (query) => api.listRuns(query), cursorOf: (run) => run.startedAt, noun: 'run', render, status, more });
  const load = list.load;

  /** @param {RunSummary[]} shown */
  function render(shown) {
    replaceChildren(
      results,
      shown.length === 0
        ? h('p', {}, 'No run matches. Runs appear here when a host calls a composite tool.')
        : h(
            'table',
            {},
            h('caption', { class: 'visually-hidden' }, 'Composite runs, newest first'),
            h('thead', {}, h('tr', {}, ['Started', 'Composite', 'State', 'Duration', 'Steps', 'Result'].map((title) => h('th', { scope: 'col' }, title)))),
            h(
              'tbody',
              {},
              shown.map((run) =>
                h(
                  'tr',
                  { 'data-run-id': run.id },
                  h('td', {}, localTime(run.startedAt)),
                  h('td', {}, h('a', { href: `#run/${encodeURIComponent(run.id)}` }, run.composite)),
                  h('td', {}, stateBadge(run.state)),
                  h('td', {}, run.durationMs === undefined ? (run.state === 'running' ? 'running' : '') : formatDuration(run.durationMs)),
                  h('td', {}, stepCounts(run)),
                  h('td', {}, run.summary ? shorten(run.summary, 80) : ''),
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

/**
 * `4 steps: 2 completed, 1 running, 1 pending`.
 * @param {RunSummary} run
 */
function stepCounts(run) {
  const parts = Object.entries(run.stepStates).map(([state, count]) => `${count} ${state}`);
  return `${run.steps} step${run.steps === 1 ? '' : 's'}${parts.length > 0 ? `: ${parts.join(', ')}` : ''}`;
}

/**
 * @param {string} text
 * @param {number} max
 */
function shorten(text, max) {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** @param {unknown} value */
const json = (value) => h('pre', { class: 'json' }, JSON.stringify(value, null, 2));

/**
 * Term/definition pairs, leaving out the empty ones.
 * @param {[string, string | Node | undefined][]} facts
 */
function factList(facts) {
  return h(
    'dl',
    { class: 'facts-list' },
    facts.filter(([, value]) => value !== undefined && value !== '').flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value ?? '')]),
  );
}

/**
 * One step: its facts, the answer it got and the output later steps saw.
 * @param {RunStep} step
 * @param {number} index
 * @param {number} skewMs
 */
function stepSection(step, index, skewMs) {
  const titleId = `run-step-${index}`;
  const duration = between(step.startedAt, step.finishedAt);
  return h(
    'section',
    { class: `step step-${step.state}`, 'aria-labelledby': titleId, 'data-step-id': step.id },
    h('h3', { id: titleId }, `Step ${step.id}`, ' ', stateBadge(step.state)),
    factList([
      ['Kind', step.kind],
      ['State', step.state],
      ['Started', step.startedAt ? formatTime(step.startedAt, skewMs) : undefined],
      ['Finished', step.finishedAt ? formatTime(step.finishedAt, skewMs) : undefined],
      ['Took', duration === undefined ? undefined : formatDuration(duration)],
      ['Attempts', step.attempts === undefined ? undefined : String(step.attempts)],
      ['Outcome', step.outcome],
      ['Reason', step.reason],
      ['Question', step.questionId ? h('a', { href: `#question/${encodeURIComponent(step.questionId)}` }, step.questionId) : undefined],
    ]),
    step.answer === undefined ? null : [h('h4', {}, 'Answer'), json(step.answer)],
    step.output === undefined ? null : [h('h4', {}, 'Output'), json(step.output)],
  );
}

/**
 * A run: its facts, its input, and every step in order.
 * @param {HTMLElement} container
 * @param {Run} run
 * @param {number} skewMs
 */
export function renderRun(container, run, skewMs) {
  const duration = between(run.startedAt, run.finishedAt);
  replaceChildren(
    container,
    h('h2', { id: 'run-title' }, `Run of ${run.composite}`),
    h('p', {}, h('a', { href: '#runs' }, '← Runs')),
    factList([
      ['Id', run.id],
      ['Composite', run.composite],
      ['State', stateBadge(run.state)],
      ['Host session', run.hostSessionId],
      ['Called by', run.principal],
      ['Started', formatTime(run.startedAt, skewMs)],
      ['Finished', run.finishedAt ? formatTime(run.finishedAt, skewMs) : undefined],
      ['Duration', duration === undefined ? undefined : formatDuration(duration)],
      ['Result', run.summary],
    ]),
    h('h3', {}, 'Input'),
    json(run.input),
    h('h3', {}, `Steps (${run.steps.length})`),
    run.steps.length === 0 ? h('p', {}, 'No step recorded.') : h('div', { class: 'steps' }, run.steps.map((step, index) => stepSection(step, index, skewMs))),
  );
}
