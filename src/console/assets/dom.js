// @ts-check
/** @module A tiny element builder: text is always set as text (never parsed as HTML), so nothing a question carries can inject markup. */

/**
 * @typedef {string | number | boolean | null | undefined | EventListener} AttributeValue
 * @typedef {Node | string | null | undefined | false} Child
 */

/**
 * Builds an element. `attributes`: `on<event>` keys add listeners; `true` sets a boolean attribute, `false`, null and
 * undefined leave it out; everything else is set as an attribute string. Children: nodes, or strings as text.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, AttributeValue>} [attributes]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== null && value !== undefined) element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

/**
 * @param {Element | DocumentFragment} parent
 * @param {(Child | Child[])[]} children
 */
export function append(parent, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/**
 * Replaces an element's children.
 * @param {Element} parent
 * @param {...(Child | Child[])} children
 */
export function replaceChildren(parent, ...children) {
  parent.replaceChildren();
  append(parent, children);
}

/**
 * The element with this id, of the expected type, or an error (the page and the scripts disagree).
 * @template {typeof HTMLElement} T
 * @param {string} id
 * @param {T} type
 * @returns {InstanceType<T>}
 */
export function byId(id, type) {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`console page lacks #${id}`);
  return /** @type {InstanceType<T>} */ (element);
}

let nextId = 0;
/** A fresh id for label/aria wiring. @param {string} prefix */
export function uniqueId(prefix) {
  nextId += 1;
  return `${prefix}-${nextId}`;
}

/**
 * A time as the operator reads it: local date and time, and how long ago or ahead (by the server's clock).
 * @param {string | undefined} iso
 * @param {number} [skewMs] server time minus local time
 */
export function formatTime(iso, skewMs = 0) {
  if (!iso) return '';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const delta = at - (Date.now() + skewMs);
  const minutes = Math.round(Math.abs(delta) / 60_000);
  const span = minutes < 1 ? 'less than a minute' : minutes < 90 ? `${minutes} min` : `${Math.round(minutes / 60)} h`;
  return `${new Date(at).toLocaleString()} (${delta >= 0 ? `in ${span}` : `${span} ago`})`;
}
