// @ts-check
/** @module Renders form-model field descriptors as labelled, accessible inputs, reads their values back and shows errors next to them. */

import { h, uniqueId } from './dom.js';

/**
 * @typedef {import('./form-model.js').FieldDescriptor} FieldDescriptor
 * @typedef {import('./form-model.js').FormValue} FormValue
 * @typedef {{ element: HTMLElement, read: () => FormValue, setError: (message: string | undefined) => void, focus: () => void }} FieldView
 */

/** @param {FieldDescriptor} field */
const requiredMark = (field) => (field.required ? h('span', { class: 'required', title: 'required' }, ' *') : null);

/**
 * @param {FieldDescriptor} field
 * @param {string} id
 * @returns {{ input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement, read: () => FormValue }}
 */
function singleInput(field, id) {
  const required = field.required || undefined;
  switch (field.kind) {
    case 'number': {
      const input = h('input', { id, name: field.name, type: 'number', inputmode: field.integer ? 'numeric' : 'decimal', step: field.step, min: field.min, max: field.max, required });
      input.value = String(field.initial);
      return { input, read: () => input.value };
    }
    case 'checkbox': {
      // Never `required`: for a boolean that would mean "must be ticked", not "must be answered".
      const input = h('input', { id, name: field.name, type: 'checkbox' });
      input.checked = field.initial === true;
      return { input, read: () => input.checked };
    }
    case 'select': {
      const select = h(
        'select',
        { id, name: field.name, required },
        h('option', { value: '' }, field.required ? '— choose —' : '— none —'),
        (field.options ?? []).map((option) => h('option', { value: option.value }, option.label)),
      );
      select.value = String(field.initial);
      return { input: select, read: () => select.value };
    }
    case 'json': {
      const area = h('textarea', { id, name: field.name, rows: 4, spellcheck: 'false', required });
      area.value = String(field.initial);
      return { input: area, read: () => area.value };
    }
    default: {
      const input = h('input', { id, name: field.name, type: field.inputType ?? 'text', minlength: field.minLength, maxlength: field.maxLength, required, step: field.inputType === 'datetime-local' ? 1 : undefined });
      input.value = String(field.initial);
      return { input, read: () => input.value };
    }
  }
}

/**
 * A multi-select as a group of checkboxes in a fieldset.
 * @param {FieldDescriptor} field
 * @param {string} id
 * @returns {FieldView}
 */
function multiSelect(field, id) {
  const help = field.description ? h('p', { class: 'help', id: `${id}-help` }, field.description) : null;
  const limits = [field.minItems ? `at least ${field.minItems}` : '', field.maxItems ? `at most ${field.maxItems}` : ''].filter(Boolean).join(', ');
  const error = h('p', { class: 'field-error', id: `${id}-error`, hidden: true });
  const initial = new Set(Array.isArray(field.initial) ? field.initial : []);
  const boxes = (field.options ?? []).map((option, i) => {
    const box = h('input', { type: 'checkbox', id: `${id}-${i}`, name: field.name, value: option.value });
    box.checked = initial.has(option.value);
    return { box, row: h('div', { class: 'choice' }, box, h('label', { for: `${id}-${i}` }, option.label)) };
  });
  const fieldset = h(
    'fieldset',
    { class: 'field multiselect', id, 'aria-describedby': [help ? `${id}-help` : '', `${id}-error`].filter(Boolean).join(' ') },
    h('legend', {}, field.label, requiredMark(field), limits ? h('span', { class: 'limits' }, ` (choose ${limits})`) : null),
    help,
    boxes.map((b) => b.row),
    error,
  );
  /** @param {string | undefined} message */
  const setError = (message) => {
    error.textContent = message ?? '';
    error.hidden = message === undefined;
    fieldset.classList.toggle('invalid', message !== undefined);
  };
  // An edit makes the message stale.
  fieldset.addEventListener('change', () => setError(undefined));
  return {
    element: fieldset,
    read: () => boxes.filter((b) => b.box.checked).map((b) => b.box.value),
    setError,
    focus: () => boxes[0]?.box.focus(),
  };
}

/**
 * @param {FieldDescriptor} field
 * @returns {FieldView}
 */
export function renderField(field) {
  const id = uniqueId(`field-${field.name.replace(/[^A-Za-z0-9_-]/g, '_')}`);
  if (field.kind === 'multiselect') return multiSelect(field, id);
  const { input, read } = singleInput(field, id);
  const help = field.description ? h('p', { class: 'help', id: `${id}-help` }, field.description) : null;
  const error = h('p', { class: 'field-error', id: `${id}-error`, hidden: true });
  input.setAttribute('aria-describedby', [help ? `${id}-help` : '', `${id}-error`].filter(Boolean).join(' '));
  const label = h('label', { for: id }, field.label, requiredMark(field));
  const element =
    field.kind === 'checkbox'
      ? h('div', { class: 'field checkbox' }, h('div', { class: 'choice' }, input, label), help, error)
      : h('div', { class: 'field' }, label, help, input, error);
  /** @param {string | undefined} message */
  const setError = (message) => {
    error.textContent = message ?? '';
    error.hidden = message === undefined;
    if (message === undefined) input.removeAttribute('aria-invalid');
    else input.setAttribute('aria-invalid', 'true');
  };
  // An edit makes the message stale.
  input.addEventListener('input', () => setError(undefined));
  input.addEventListener('change', () => setError(undefined));
  return { element, read, setError, focus: () => input.focus() };
}

/**
 * Every field of a form, with one way to read all values and to show errors.
 * @param {FieldDescriptor[]} fields
 */
export function renderFields(fields) {
  /** @type {Map<string, FieldView>} */
  const views = new Map(fields.map((field) => [field.name, renderField(field)]));
  return {
    elements: [...views.values()].map((view) => view.element),
    /** @returns {Record<string, FormValue>} */
    read: () => Object.fromEntries([...views].map(([name, view]) => [name, view.read()])),
    /** @param {{ field: string, message: string }[]} errors */
    showErrors(errors) {
      for (const view of views.values()) view.setError(undefined);
      for (const { field, message } of errors) views.get(field)?.setError(message);
      const first = errors.find((e) => views.has(e.field));
      if (first) views.get(first.field)?.focus();
    },
  };
}
