/**
 * @module The one answer check: a host's answer against what the host was asked (limits, the schema it was sent,
 * the upstream's own when downgraded, with the defaults it never saw filled in), an operator's against what the upstream
 * asked; and an answer in the desk's terms.
 */

import { cloneJson, putKey } from '../../protocol/json-clone.js';
import type { JsonObject, JsonRpcResponse } from '../../protocol/jsonrpc.js';
import { isObject } from '../../protocol/jsonrpc.js';
import { sameAnswerForm, validateElicitAnswer } from '../elicitation-answer.js';
import { checkAnswerLimits } from '../elicitation-limits.js';
import { fitSamplingResult } from '../sampling-content.js';

/**
 * An answer in the desk's own terms. Elicitation: `accept` (with `content`), `decline` or `cancel`.
 * Sampling and roots: `accept` with `result` (the JSON-RPC result the upstream receives), or `decline`/`cancel`,
 * which the upstream receives as a JSON-RPC error (sampling has no decline shape).
 */
export interface QuestionAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: JsonObject;
  result?: JsonObject;
}

/** Why an answer is refused: a sentence, and the first offending field when there is one. */
export interface AnswerRefusal {
  reason: string;
  field?: string;
}

/** What a form question was asked with: the schema the host was sent, and the upstream's own when it was downgraded. */
export interface AskedSchemas {
  requestedSchema: JsonObject | undefined;
  upstreamSchema: JsonObject | undefined;
}

export type HostAnswerCheck = { ok: true; result: JsonObject | undefined } | ({ ok: false } & AnswerRefusal);

export type OperatorAnswerCheck = { ok: true; answer: QuestionAnswer } | ({ ok: false } & AnswerRefusal);

/**
 * What the upstream gets for a host's answer, or why the answer is refused. A form answer must pass
 * the limits and the schema the host was sent; when that schema was downgraded, the defaults the host
 * never saw are filled in and the result must also satisfy the upstream's own schema. Anything else
 * (and every answer of a host that was sent the upstream's schema as is) goes through untouched.
 */
export function checkHostAnswer(asked: AskedSchemas, message: JsonRpcResponse): HostAnswerCheck {
  if ('error' in message) return { ok: true, result: undefined };
  const { requestedSchema, upstreamSchema } = asked;
  const result = message.result;
  if (requestedSchema === undefined) return { ok: true, result };
  const limit = checkAnswerLimits(result);
  if (limit) return { ok: false, reason: `Invalid answer: ${limit}`, field: 'content' };
  const verdict = validateElicitAnswer(result, requestedSchema, { limitsChecked: true });
  if (!verdict.ok) return { ok: false, reason: `Invalid answer: ${verdict.reason}`, ...fieldOf(verdict) };
  if (upstreamSchema === undefined) return { ok: true, result };
  const filled = fillHiddenDefaults(result, upstreamSchema, requestedSchema);
  // The very answer just checked, against a schema with the same answer form: the verdict would be the same.
  if (filled === result && sameAnswerForm(requestedSchema, upstreamSchema)) return { ok: true, result };
  const upstreamVerdict = validateElicitAnswer(filled, upstreamSchema);
  return upstreamVerdict.ok ? { ok: true, result: filled } : { ok: false, reason: `Invalid answer for the upstream's own schema: ${upstreamVerdict.reason}`, ...fieldOf(upstreamVerdict) };
}

/** A host's (checked) answer in the desk's terms, for the record: an error response is a decline. */
export function hostAnswerOf(method: string, message: JsonRpcResponse, checked: JsonObject | undefined): QuestionAnswer {
  if ('error' in message) return { action: 'decline', result: { error: message.error as unknown as JsonObject } };
  const result = checked ?? message.result;
  if (method === 'elicitation/create') {
    const action = result.action === 'accept' || result.action === 'decline' ? result.action : 'cancel';
    return isObject(result.content) ? { action, content: result.content } : { action };
  }
  return { action: 'accept', result };
}

/** An operator's answer, checked against the upstream's own request (its schema, its revision): only an `accept` carries anything to check. */
export function checkOperatorAnswer(method: string, params: JsonObject, upstreamRevision: string, answer: QuestionAnswer): OperatorAnswerCheck {
  if (answer.action !== 'accept') return { ok: true, answer: { action: answer.action } };
  switch (method) {
    case 'elicitation/create': {
      const result: JsonObject = answer.content === undefined ? { action: 'accept' } : { action: 'accept', content: answer.content };
      const verdict = validateElicitAnswer(result, params.mode === 'url' ? undefined : params.requestedSchema);
      if (!verdict.ok) return { ok: false, reason: verdict.reason, ...fieldOf(verdict) };
      return { ok: true, answer: answer.content === undefined ? { action: 'accept' } : { action: 'accept', content: answer.content } };
    }
    case 'sampling/createMessage': {
      const result = answer.result;
      if (!isObject(result)) return { ok: false, reason: 'a sampling answer needs a result', field: 'result' };
      const limit = checkAnswerLimits(result);
      if (limit) return { ok: false, reason: limit, field: 'result' };
      if (result.role !== 'assistant') return { ok: false, reason: 'result.role must be "assistant"', field: 'result.role' };
      if (typeof result.model !== 'string' || result.model === '') return { ok: false, reason: 'result.model must be a non-empty string', field: 'result.model' };
      if (!isObject(result.content) && !Array.isArray(result.content)) return { ok: false, reason: 'result.content must be a content block', field: 'result.content' };
      const fitted = fitSamplingResult(result, upstreamRevision);
      if (!fitted.ok) return { ok: false, reason: fitted.reason, field: 'result.content' };
      return { ok: true, answer: { action: 'accept', result: fitted.result } };
    }
    case 'roots/list': {
      const result = answer.result;
      if (!isObject(result) || !Array.isArray(result.roots)) return { ok: false, reason: 'a roots answer needs result.roots (an array)', field: 'result.roots' };
      const bad = result.roots.findIndex((root) => !isObject(root) || typeof root.uri !== 'string' || !root.uri.startsWith('file://'));
      if (bad !== -1) return { ok: false, reason: 'each root needs a file:// uri', field: `result.roots[${bad}].uri` };
      return { ok: true, answer: { action: 'accept', result } };
    }
    default:
      return { ok: false, reason: `${method} cannot be answered by an operator` };
  }
}

function fieldOf(verdict: { field?: string }): { field?: string } {
  return verdict.field === undefined ? {} : { field: verdict.field };
}

/*
 * The defaults a downgraded host never saw, filled into its accepted answer (SEP-1034). A 2025-06-18 host is sent the
 * upstream's form without `default` on anything but booleans (mcp-revisions.md §3.3, §10.4). A 2025-11-25 host would
 * have pre-filled those defaults, so an upstream that declared one may rely on getting a value. When the older host
 * accepts and leaves such a property out, the upstream's default is put in its place. Only defaults the host was *not*
 * sent are filled (a boolean default it saw and left out stays left out), only on `accept`, and only a default that is
 * itself valid for its property (an upstream's bad default is not forced on anyone). Never used for a host that
 * received the upstream's schema as is.
 */

/**
 * The properties whose `default` is in the upstream's schema but not in the schema the host was sent, with that default;
 * those named in `answered` (the host gave them a value) are left out.
 */
export function hiddenDefaults(upstreamSchema: unknown, sentSchema: unknown, answered: JsonObject = {}): JsonObject {
  const upstream = isObject(upstreamSchema) && isObject(upstreamSchema.properties) ? upstreamSchema.properties : {};
  let sent: JsonObject | undefined;
  const out: JsonObject = {};
  for (const [name, property] of Object.entries(upstream)) {
    if (Object.hasOwn(answered, name) || !isObject(property) || !Object.hasOwn(property, 'default')) continue;
    sent ??= isObject(sentSchema) && isObject(sentSchema.properties) ? sentSchema.properties : {};
    const seen = Object.hasOwn(sent, name) ? sent[name] : undefined;
    if (isObject(seen) && Object.hasOwn(seen, 'default')) continue;
    if (!validateElicitAnswer({ action: 'accept', content: { [name]: property.default } }, { type: 'object', properties: { [name]: property } }).ok) continue;
    putKey(out, name, property.default);
  }
  return out;
}

/**
 * `result` with every hidden default filled in where an `accept` answer omits the property. Returns
 * `result` itself when there is nothing to fill (any other action, no hidden defaults, nothing
 * omitted, or a `content` that is not an object, which the answer check refuses anyway); otherwise a
 * copy whose `content` gains the defaults after the host's own values. Never mutates its arguments.
 */
export function fillHiddenDefaults(result: JsonObject, upstreamSchema: unknown, sentSchema: unknown): JsonObject {
  if (result.action !== 'accept') return result;
  if (result.content !== undefined && !isObject(result.content)) return result;
  const given = result.content ?? {};
  const missing = Object.entries(hiddenDefaults(upstreamSchema, sentSchema, given));
  if (missing.length === 0) return result;
  const content: JsonObject = {};
  for (const [name, value] of Object.entries(given)) putKey(content, name, value);
  for (const [name, value] of missing) putKey(content, name, cloneJson(value));
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(result)) putKey(out, key, key === 'content' ? content : value);
  if (!Object.hasOwn(out, 'content')) putKey(out, 'content', content);
  return out;
}
