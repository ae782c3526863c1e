// @ts-check
/** @module How a question reads in the console: its title line, who answered it, and a sampling request's messages. */

import { formatTime, h } from './dom.js';

/**
 * @typedef {import('./api.js').Question} Question
 * @typedef {import('./api.js').Answerer} Answerer
 */

/** @type {Record<string, string>} */
const METHOD_NAMES = { 'elicitation/create': 'Elicitation', 'sampling/createMessage': 'Sampling', 'roots/list': 'Roots' };

/** @param {string} method */
export const methodName = (method) => METHOD_NAMES[method] ?? method;

/** @param {Answerer | undefined} by */
export function describeAnswerer(by) {
  if (!by) return 'nobody';
  switch (by.kind) {
    case 'host':
      return `host ${by.sessionId}`;
    case 'operator':
      return by.subject !== undefined && by.subject !== by.name ? `operator ${by.name} <${by.subject}>` : `operator ${by.name}`;
    default:
      return `the gateway (${by.reason})`;
  }
}

/**
 * The heading and facts of a question.
 * @param {Question} q
 * @param {string} titleId
 * @param {number} skewMs
 */
export function questionSummary(q, titleId, skewMs) {
  const where = q.tool ? `${q.upstream} · ${q.tool}` : q.upstream;
  const mode = q.method === 'elicitation/create' && q.params.mode === 'url' ? ' (URL)' : '';
  return [
    h('h3', { id: titleId }, `${methodName(q.method)}${mode} from ${where}`),
    h(
      'p',
      { class: 'facts' },
      h('span', { class: `state state-${q.state}` }, q.state),
      ` asked ${formatTime(q.createdAt, skewMs)}`,
      q.state === 'pending' || q.state === 'delivered' ? ` · expires ${formatTime(q.deadline, skewMs)}` : '',
    ),
    askedBy(q),
    approvalsLine(q),
  ];
}

/**
 * Who asked: the host principal and its client name, and the arguments of the tool call (secrets already redacted).
 * @param {Question} q
 */
export function askedBy(q) {
  if (q.principal === undefined && q.clientName === undefined && q.arguments === undefined) return null;
  const host = [q.principal ?? 'an unauthenticated host', q.clientName ? `(${q.clientName})` : ''].filter(Boolean).join(' ');
  return h(
    'div',
    { class: 'asked-by' },
    h('p', {}, `Asked by ${host}${q.tool ? ` calling ${q.tool}` : ''}`),
    q.arguments === undefined ? null : h('pre', { class: 'arguments', 'aria-label': 'Arguments of the call' }, JSON.stringify(q.arguments, null, 2)),
  );
}

/**
 * A four-eyes question's approvals: "1 of 2 approvals: Ada".
 * @param {Question} q
 */
export function approvalsLine(q) {
  if (!q.approvals) return null;
  const { needed, approvers } = q.approvals;
  const who = approvers.map((approver) => (approver.name === approver.subject ? approver.name : `${approver.name} <${approver.subject}>`)).join(', ');
  return h('p', { class: 'approvals', 'data-approvals': String(approvers.length) }, `${approvers.length} of ${needed} approvals${who ? `: ${who}` : ''}`);
}

/**
 * One content block of a sampling message: text as it is, anything else summarised.
 * @param {unknown} block
 * @returns {string}
 */
export function contentText(block) {
  if (typeof block !== 'object' || block === null) return '[empty]';
  const part = /** @type {Record<string, unknown>} */ (block);
  switch (part.type) {
    case 'text':
      return typeof part.text === 'string' ? part.text : '';
    case 'image':
    case 'audio': {
      const size = typeof part.data === 'string' ? ` ~${Math.max(1, Math.round((part.data.length * 3) / 4 / 1024))} KB` : '';
      return `[${part.type} ${typeof part.mimeType === 'string' ? part.mimeType : ''}${size}]`;
    }
    case 'resource_link':
    case 'resource':
      return `[resource ${String(part.uri ?? (/** @type {Record<string, unknown>} */ (part.resource ?? {})).uri ?? '')}]`;
    case 'tool_use':
      return `[tool call ${String(part.name ?? '')}]`;
    case 'tool_result':
      return '[tool result]';
    default:
      return `[${String(part.type ?? 'unknown')} content]`;
  }
}

/**
 * The messages of a sampling request, with its system prompt and token budget.
 * @param {Record<string, unknown>} params
 */
export function samplingTranscript(params) {
  const messages = Array.isArray(params.messages) ? params.messages : [];
  return h(
    'div',
    { class: 'transcript' },
    typeof params.systemPrompt === 'string' ? h('p', { class: 'system' }, h('strong', {}, 'System: '), params.systemPrompt) : null,
    h(
      'ol',
      { class: 'messages', 'aria-label': 'Messages' },
      messages.map((message) => {
        const m = /** @type {Record<string, unknown>} */ (message ?? {});
        const blocks = Array.isArray(m.content) ? m.content : [m.content];
        return h('li', { class: `message role-${String(m.role)}` }, h('span', { class: 'role' }, String(m.role ?? '?')), h('span', { class: 'text' }, blocks.map(contentText).join('\n')));
      }),
    ),
    typeof params.maxTokens === 'number' ? h('p', { class: 'facts' }, `At most ${params.maxTokens} tokens.`) : null,
  );
}
