// @ts-check
/** @module One open question in the inbox: what was asked, and the form to answer it (elicitation form or URL, sampling reply, roots). */

import { ApiError } from './api.js';
import { h, replaceChildren, uniqueId } from './dom.js';
import { contentFromForm, fieldOfErrorPath, fieldsFromSchema } from './form-model.js';
import { renderFields } from './form-view.js';
import { describeAnswerer, questionSummary, samplingTranscript } from './question-text.js';

/**
 * @typedef {import('./api.js').Question} Question
 * @typedef {import('./api.js').Answer} Answer
 * @typedef {import('./api.js').Api} Api
 */

/** @param {unknown} value @returns {string} */
const text = (value) => (typeof value === 'string' ? value : '');

/**
 * The answering part of a card: a form whose buttons send an answer. `collect` builds the accept (or returns
 * field errors); decline and cancel need nothing.
 * A four-eyes accept that does not settle the question calls `onApproved` with the question as it stands.
 * @param {{ api: Api, question: Question, body: (Node | null)[], acceptLabel: string, collect: () => { answer: Answer } | { errors: { field: string, message: string }[] }, showFieldErrors: (errors: { field: string, message: string }[]) => void, onAnswered: (question: Question) => void, onApproved?: (question: Question) => void }} options
 */
function answerForm({ api, question, body, acceptLabel, collect, showFieldErrors, onAnswered, onApproved = () => {} }) {
  const noteId = uniqueId('approval-note');
  const approvalNote = h('p', { class: 'approval-note', id: noteId, role: 'status', hidden: true });
  const errorId = uniqueId('form-error');
  const formError = h('p', { class: 'form-error', id: errorId, role: 'alert', hidden: true });
  const buttons = [
    h('button', { type: 'submit', class: 'primary' }, acceptLabel),
    h('button', { type: 'button', 'data-action': 'decline' }, 'Decline'),
    h('button', { type: 'button', 'data-action': 'cancel' }, 'Cancel'),
  ];
  const form = h('form', { class: 'answer', novalidate: true, 'aria-describedby': errorId }, body, h('div', { class: 'actions' }, buttons), approvalNote, formError);

  /** @param {string | undefined} message */
  const showFormError = (message) => {
    formError.textContent = message ?? '';
    formError.hidden = message === undefined;
  };

  /** @param {Answer} answer */
  async function send(answer) {
    showFormError(undefined);
    for (const button of buttons) button.disabled = true;
    try {
      const answered = await api.answer(question.id, answer);
      if (answered.state === 'awaiting-approval') {
        // Four-eyes: recorded as this operator's approval; the question stays open for another operator.
        approvalNote.textContent = `Your approval is recorded: ${answered.approvals} of ${answered.needed} approvals. Another operator must approve it.`;
        approvalNote.hidden = false;
        onApproved(answered.question);
        return;
      }
      onAnswered(answered.question);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ALREADY_APPROVED') {
        approvalNote.textContent = 'You approved this question already. Another operator must approve it.';
        approvalNote.hidden = false;
        if (error.question) onApproved(error.question);
        return;
      }
      if (error instanceof ApiError && error.status === 409 && error.question) {
        onAnswered(error.question);
        return;
      }
      const field = error instanceof ApiError ? error.field : undefined;
      const message = error instanceof Error ? error.message : String(error);
      showFieldErrors(field ? [{ field, message }] : []);
      showFormError(error instanceof ApiError ? `${message}${field ? ` (${field})` : ''}` : `Could not send the answer: ${message}`);
    } finally {
      for (const button of buttons) button.disabled = false;
    }
  }

  // An edit makes the form-level message stale too.
  form.addEventListener('input', () => showFormError(undefined));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const collected = collect();
    if ('errors' in collected) {
      showFieldErrors(collected.errors);
      showFormError(collected.errors.map((e) => e.message).join('; '));
      return;
    }
    showFieldErrors([]);
    void send(collected.answer);
  });
  for (const button of buttons.slice(1)) {
    button.addEventListener('click', () => void send({ action: /** @type {'decline' | 'cancel'} */ (button.dataset.action) }));
  }
  return form;
}

/**
 * @param {Question} question
 * @param {Api} api
 * @param {(question: Question) => void} onAnswered
 * @param {(question: Question) => void} onApproved
 */
function elicitationBody(question, api, onAnswered, onApproved) {
  const { params } = question;
  const message = h('p', { class: 'message' }, text(params.message));
  if (params.mode === 'url') {
    const url = text(params.url);
    return [
      message,
      h('p', { class: 'url' }, 'Open: ', h('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, url)),
      answerForm({ api, question, body: [], acceptLabel: 'Done', collect: () => ({ answer: { action: 'accept' } }), showFieldErrors: () => {}, onAnswered, onApproved }),
    ];
  }
  const fields = fieldsFromSchema(params.requestedSchema);
  const view = renderFields(fields);
  const form = answerForm({
    api,
    question,
    body: view.elements,
    acceptLabel: 'Accept',
    collect() {
      const result = contentFromForm(fields, view.read());
      return result.ok ? { answer: { action: 'accept', content: result.content } } : { errors: result.errors };
    },
    showFieldErrors: (errors) => view.showErrors(errors.map((e) => ({ field: fieldOfErrorPath(fields, e.field) ?? e.field, message: e.message }))),
    onAnswered,
    onApproved,
  });
  return [message, form];
}

/**
 * @param {Question} question
 * @param {Api} api
 * @param {(question: Question) => void} onAnswered
 */
function samplingBody(question, api, onAnswered) {
  const id = uniqueId('reply');
  const reply = h('textarea', { id, name: 'reply', rows: 5, required: true });
  const replyError = h('p', { class: 'field-error', id: `${id}-error`, hidden: true });
  reply.setAttribute('aria-describedby', `${id}-error`);
  return [
    samplingTranscript(question.params),
    answerForm({
      api,
      question,
      body: [h('div', { class: 'field' }, h('label', { for: id }, 'Your reply', h('span', { class: 'required', title: 'required' }, ' *')), reply, replyError)],
      acceptLabel: 'Send reply',
      collect: () =>
        reply.value.trim() === ''
          ? { errors: [{ field: 'reply', message: 'Write a reply, or decline' }] }
          : { answer: { action: 'accept', result: { role: 'assistant', content: { type: 'text', text: reply.value }, model: 'operator', stopReason: 'endTurn' } } },
      showFieldErrors(errors) {
        const message = errors[0]?.message;
        replyError.textContent = message ?? '';
        replyError.hidden = message === undefined;
        if (message === undefined) reply.removeAttribute('aria-invalid');
        else reply.setAttribute('aria-invalid', 'true');
      },
      onAnswered,
    }),
  ];
}

/**
 * @param {Question} question
 * @param {Api} api
 * @param {(question: Question) => void} onAnswered
 */
function rootsBody(question, api, onAnswered) {
  const id = uniqueId('roots');
  const roots = h('textarea', { id, name: 'roots', rows: 3, spellcheck: 'false', 'aria-describedby': `${id}-help` });
  return [
    h('p', { class: 'message' }, 'The upstream asks which roots (folders) it may work in.'),
    answerForm({
      api,
      question,
      body: [h('div', { class: 'field' }, h('label', { for: id }, 'Roots'), h('p', { class: 'help', id: `${id}-help` }, 'One file:// URI per line; empty for none.'), roots)],
      acceptLabel: 'Send roots',
      collect: () => ({ answer: { action: 'accept', result: { roots: roots.value.split('\n').map((line) => line.trim()).filter(Boolean).map((uri) => ({ uri })) } } }),
      showFieldErrors: () => {},
      onAnswered,
    }),
  ];
}

/**
 * What an operator sees of a question that is not theirs to answer (routed to its host only, or to nobody): what was
 * asked and why there is no form. The broker refuses an operator's answer to such a question, so none is offered.
 * @param {Question} question
 */
function watchOnlyBody(question) {
  const asked =
    question.method === 'sampling/createMessage'
      ? samplingTranscript(question.params)
      : question.method === 'roots/list'
        ? h('p', { class: 'message' }, 'The upstream asks which roots (folders) it may work in.')
        : h('p', { class: 'message' }, text(question.params.message));
  const why =
    question.audience === 'host'
      ? `Routed to its host only (route: ${question.route}): the host answers it, not an operator.`
      : `Nobody can answer it${question.audienceReason ? `: ${question.audienceReason}` : ''}.`;
  return [asked, h('p', { class: 'watch-note' }, why)];
}

/** Whether an operator may answer this question at all (the audience is fixed when the question is created). */
const operatorMayAnswer = (/** @type {Question} */ question) => question.audience !== 'host' && question.audience !== 'none';

/**
 * An inbox card. `update` refreshes its header when the question changes; a settled question replaces the form
 * with who settled it, so an operator halfway through a form sees why it went away.
 * @param {Question} question
 * @param {{ api: Api, skewMs: () => number, onSettled: (question: Question) => void, onDismiss: () => void }} context
 */
export function questionCard(question, { api, skewMs, onSettled, onDismiss }) {
  const titleId = uniqueId('question-title');
  const header = h('header', {});
  const body = h('div', { class: 'body' });
  const card = h('article', { class: 'question', 'aria-labelledby': titleId, 'data-question-id': question.id }, header, body);

  /** @param {Question} q */
  const renderHeader = (q) => replaceChildren(header, questionSummary(q, titleId, skewMs()));

  /** @param {Question} settled */
  const settle = (settled) => {
    renderHeader(settled);
    card.classList.add('settled');
    replaceChildren(
      body,
      h('p', { class: 'settled-note', role: 'status' }, `Settled: ${settled.state} by ${describeAnswerer(settled.answeredBy)}.`),
      h('p', { class: 'actions' }, h('a', { href: `#question/${encodeURIComponent(settled.id)}` }, 'Full record'), ' ', h('button', { type: 'button', onclick: onDismiss }, 'Dismiss')),
    );
    onSettled(settled);
  };

  renderHeader(question);
  const parts = !operatorMayAnswer(question)
    ? watchOnlyBody(question)
    : question.method === 'sampling/createMessage'
      ? samplingBody(question, api, settle)
      : question.method === 'roots/list'
        ? rootsBody(question, api, settle)
        : elicitationBody(question, api, settle, renderHeader);
  replaceChildren(body, parts);
  return {
    element: card,
    /** @param {Question} q */
    update(q) {
      if (q.state === 'pending' || q.state === 'delivered') renderHeader(q);
      else settle(q);
    },
  };
}
