// @ts-check
/**
 * @module The console's entry point: sign-in (OpenID Connect through the gateway's session cookie, or the operator
 * token where the gateway accepts it), the live inbox, the history, the record view and the composite runs, switched by the URL fragment.
 */

import { authMethods, cookieSession, createApi, OPEN_STATES } from './api.js';
import { byId, h, replaceChildren } from './dom.js';
import { followEvents } from './event-stream.js';
import { createHistory, renderDetail } from './history-view.js';
import { questionCard } from './question-card.js';
import { createRuns, renderRun } from './runs-view.js';

/** @typedef {import('./api.js').Question} Question */
/** @typedef {import('./api.js').Session} Session */

const TOKEN_KEY = 'switchboard.operator.token';
const NAME_KEY = 'switchboard.operator.name';

const el = {
  signIn: byId('sign-in', HTMLElement),
  signInForm: byId('sign-in-form', HTMLFormElement),
  oidcSignIn: byId('oidc-sign-in', HTMLElement),
  token: byId('token', HTMLInputElement),
  name: byId('operator-name', HTMLInputElement),
  signInError: byId('sign-in-error', HTMLElement),
  nav: byId('nav', HTMLElement),
  session: byId('session', HTMLElement),
  live: byId('live', HTMLElement),
  who: byId('who', HTMLElement),
  configVersion: byId('config-version', HTMLElement),
  signOut: byId('sign-out', HTMLButtonElement),
  inbox: byId('inbox', HTMLElement),
  inboxList: byId('inbox-list', HTMLElement),
  inboxEmpty: byId('inbox-empty', HTMLElement),
  inboxCount: byId('inbox-count', HTMLElement),
  announce: byId('announce', HTMLElement),
  history: byId('history', HTMLElement),
  detail: byId('detail', HTMLElement),
  runs: byId('runs', HTMLElement),
  run: byId('run', HTMLElement),
};

/** Server time minus local time, from the event stream's `ready` event. */
let skewMs = 0;
/** @type {{ close: () => void } | undefined} */
let events;
/** @type {Map<string, { question: Question, card: ReturnType<typeof questionCard> }>} */
const inbox = new Map();
let historyLoaded = false;
/** @type {ReturnType<typeof setTimeout> | undefined} the next read of the config version */
let configTimer;
/** @type {Session | undefined} the OpenID Connect sign-in, while there is one */
let session;

/** Signed in either way. */
const signedIn = () => session !== undefined || sessionStorage.getItem(TOKEN_KEY) !== null;

const api = createApi({
  token: () => (session ? null : sessionStorage.getItem(TOKEN_KEY)),
  operator: () => localStorage.getItem(NAME_KEY) ?? '',
  csrf: () => session?.csrf ?? null,
  onUnauthorized: () => signOut(session ? 'Your sign-in has ended. Sign in again.' : 'The token was refused. Sign in again.'),
});

const history = createHistory({
  api,
  form: byId('history-filters', HTMLFormElement),
  results: byId('history-results', HTMLElement),
  status: byId('history-status', HTMLElement),
  more: byId('history-more', HTMLButtonElement),
});

const runs = createRuns({
  api,
  form: byId('runs-filters', HTMLFormElement),
  results: byId('runs-results', HTMLElement),
  status: byId('runs-status', HTMLElement),
  more: byId('runs-more', HTMLButtonElement),
});

/** @param {string} state */
const isOpen = (state) => OPEN_STATES.includes(state);

function updateCount() {
  const open = [...inbox.values()].filter((entry) => isOpen(entry.question.state)).length;
  if (open > 0) replaceChildren(el.inboxCount, String(open), h('span', { class: 'visually-hidden' }, ' open'));
  else el.inboxCount.replaceChildren();
  el.inboxEmpty.hidden = inbox.size > 0;
  document.title = open > 0 ? `(${open}) Switchboard operator console` : 'Switchboard operator console';
}

/**
 * A question arrived or changed: add its card, refresh it, or show how it was settled.
 * @param {Question} question
 * @param {boolean} [live] it arrived as an event (announced to screen readers), not with a listing
 */
function apply(question, live = false) {
  const known = inbox.get(question.id);
  if (known) {
    if (Date.parse(question.updatedAt) < Date.parse(known.question.updatedAt)) return;
    if (!isOpen(known.question.state)) return;
    known.question = question;
    known.card.update(question);
  } else if (isOpen(question.state)) {
    const card = questionCard(question, {
      api,
      skewMs: () => skewMs,
      onSettled: (settled) => {
        const entry = inbox.get(settled.id);
        if (entry) entry.question = settled;
        updateCount();
      },
      onDismiss: () => {
        inbox.get(question.id)?.card.element.remove();
        inbox.delete(question.id);
        updateCount();
      },
    });
    inbox.set(question.id, { question, card });
    el.inboxList.prepend(card.element);
    if (live) el.announce.textContent = `New question: ${card.element.querySelector('h3')?.textContent ?? question.id}`;
  }
  updateCount();
}

/** Lists the open questions again (after every (re)connection: events are not replayed). */
async function reloadInbox() {
  const open = await api.list({ state: OPEN_STATES });
  const listed = new Set(open.map((q) => q.id));
  for (const question of [...open].reverse()) apply(question);
  // Cards still open here but no longer listed were settled while we were away.
  for (const [id, entry] of inbox) {
    if (!listed.has(id) && isOpen(entry.question.state)) api.get(id).then((record) => apply(record.question), () => undefined);
  }
}

/** @param {'connecting' | 'live' | 'reconnecting'} status */
function showStatus(status) {
  el.live.textContent = status === 'live' ? 'Live' : status === 'connecting' ? 'Connecting…' : 'Reconnecting…';
  el.live.dataset.status = status;
}

function route() {
  if (!signedIn()) return;
  const hash = location.hash.replace(/^#/, '');
  const questionId = hash.startsWith('question/') ? decodeURIComponent(hash.slice('question/'.length)) : undefined;
  const runId = hash.startsWith('run/') ? decodeURIComponent(hash.slice('run/'.length)) : undefined;
  const view = questionId !== undefined ? 'detail' : runId !== undefined ? 'run' : hash === 'history' ? 'history' : hash === 'runs' ? 'runs' : 'inbox';
  el.inbox.hidden = view !== 'inbox';
  el.history.hidden = view !== 'history';
  el.detail.hidden = view !== 'detail';
  el.runs.hidden = view !== 'runs';
  el.run.hidden = view !== 'run';
  for (const link of el.nav.querySelectorAll('a')) {
    if (link.getAttribute('href') === `#${view}`) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  if (view === 'history' && !historyLoaded) {
    historyLoaded = true;
    void history.refresh();
  }
  // Runs are not pushed live: the list is read again each time the view is shown.
  if (view === 'runs') void runs.refresh();
  if (runId !== undefined) {
    replaceChildren(el.run, h('p', { role: 'status' }, 'Loading…'));
    api.getRun(runId).then(
      (run) => renderRun(el.run, run, skewMs),
      (error) => replaceChildren(el.run, h('p', { class: 'form-error', role: 'alert' }, error instanceof Error ? error.message : String(error)), h('a', { href: '#runs' }, '← Runs')),
    );
  }
  if (questionId !== undefined) {
    replaceChildren(el.detail, h('p', { role: 'status' }, 'Loading…'));
    api.get(questionId).then(
      (record) => renderDetail(el.detail, record, skewMs),
      (error) => replaceChildren(el.detail, h('p', { class: 'form-error', role: 'alert' }, error instanceof Error ? error.message : String(error)), h('a', { href: '#history' }, '← History')),
    );
  }
}

function start() {
  el.signIn.hidden = true;
  el.nav.hidden = false;
  el.session.hidden = false;
  el.who.textContent = session
    ? `Signed in as ${session.name === session.subject ? session.name : `${session.name} (${session.subject})`}`
    : `Signed in as ${localStorage.getItem(NAME_KEY) || 'operator'}`;
  events = followEvents({
    token: () => (session ? null : sessionStorage.getItem(TOKEN_KEY)),
    onStatus: showStatus,
    onUnauthorized: () => signOut(session ? 'Your sign-in has ended. Sign in again.' : 'The token was refused. Sign in again.'),
    onEvent(event) {
      const data = JSON.parse(event.data);
      if (event.event === 'ready') {
        skewMs = Date.parse(data.serverTime) - Date.now() || 0;
        reloadInbox().catch(() => undefined);
        showConfig();
      } else if (event.event === 'created' || event.event === 'updated') {
        apply(data.question, true);
      }
    },
  });
  route();
}

/** The config version in force and when it was loaded, in the header (read at sign-in, at each reconnect, then each minute). */
function showConfig() {
  clearTimeout(configTimer);
  api.config().then(
    (info) => {
      el.configVersion.textContent = `Config ${info.version.replace(/^sha256:/, '')} · loaded ${new Date(info.loadedAt).toLocaleString()}`;
      el.configVersion.title = `${info.file}: ${info.version}, load ${info.generation} (${info.loadedAt})`;
      el.configVersion.hidden = false;
    },
    () => {
      el.configVersion.hidden = true;
    },
  );
  configTimer = setTimeout(showConfig, 60_000);
}

/** @param {string} [message] */
function signOut(message) {
  clearTimeout(configTimer);
  el.configVersion.hidden = true;
  session = undefined;
  sessionStorage.removeItem(TOKEN_KEY);
  events?.close();
  events = undefined;
  inbox.clear();
  el.inboxList.replaceChildren();
  historyLoaded = false;
  updateCount();
  for (const section of [el.inbox, el.history, el.detail, el.runs, el.run, el.nav, el.session]) section.hidden = true;
  el.signIn.hidden = false;
  el.signInError.textContent = message ?? '';
  el.signInError.hidden = !message;
  el.token.value = '';
  el.token.focus();
}

el.signInForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const token = el.token.value.trim();
  if (token === '') return;
  sessionStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(NAME_KEY, el.name.value.trim());
  try {
    await api.list({ limit: '1' });
  } catch (error) {
    // A 401 has signed out (and said why) already.
    if (sessionStorage.getItem(TOKEN_KEY)) signOut(`Could not reach the gateway: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  el.token.value = '';
  start();
});
el.signOut.addEventListener('click', async () => {
  // The session cookie is cleared by the gateway (the console cannot read or delete it).
  if (session) await api.signOut();
  signOut();
});
window.addEventListener('hashchange', route);

/** Shows the sign-ins the gateway offers this browser, and resumes a session the cookie still holds. */
async function boot() {
  el.name.value = localStorage.getItem(NAME_KEY) ?? '';
  /** @type {import('./api.js').AuthMethods} */
  let methods = { oidc: false, token: true };
  try {
    methods = await authMethods();
  } catch {
    // An older gateway, or none: offer the token.
  }
  el.oidcSignIn.hidden = !methods.oidc;
  el.signInForm.hidden = !methods.token;
  if (methods.oidc && !sessionStorage.getItem(TOKEN_KEY)) {
    session = await cookieSession().catch(() => undefined);
    if (session?.via !== 'session') session = undefined;
  }
  if (signedIn()) start();
  else signOut();
  el.oidcSignIn.hidden = !methods.oidc;
  el.signInForm.hidden = !methods.token;
}
void boot();
