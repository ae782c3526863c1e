/**
 * @module Translates 2025-11-25 `elicitation/create` params for the host revision a session negotiated.
 *
 * Pure: no I/O. The params are assumed to be 2025-11-25-shaped (the newest legacy form), their form one that
 * checkRequestedSchema accepted (planQuestion checks it first): what is not representable for the host is refused
 * here, what is ill-formed was refused there. Params that are already valid for 2025-06-18 come out unchanged, so
 * same-revision pairs pass through. See docs reference mcp-revisions.md §3 and §10.4.
 */

import { LocalError } from '../core/errors/local.js';
import { cloneJson } from '../protocol/json-clone.js';
import { isObject } from '../protocol/jsonrpc.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { revisionAtLeast } from '../protocol/revisions.js';

/**
 * `droppedDefaults`: a property's `default` was left out (2025-06-18 has it on booleans only), so the host's accepted
 * answer may lack a value the upstream declared a default for. Nothing else the downgrade changes is read by an answer
 * check: the copy's answer form is the original's.
 */
export type ElicitationTranslation = { kind: 'send'; params: JsonObject; droppedDefaults: boolean } | { kind: 'unsendable'; reason: string };

/** First revision with `elicitation/create` at all. */
export const ELICITATION_FIRST_REVISION = '2025-06-18';
/** First revision with URL mode, `oneOf`/multi-select enums, defaults on every primitive, `$schema`. */
export const ELICITATION_RICH_REVISION = '2025-11-25';

/** Params keys that 2025-06-18 does not define (`task` is 2025-11-25 task augmentation, §10.4). */
const DROPPED_PARAMS_KEYS = new Set(['mode', 'elicitationId', 'task']);

class Unsendable extends LocalError {
  override readonly code = 'elicitation-unsendable';
}

/**
 * What a host at `hostRevision` should receive for these `elicitation/create` params (a form checkRequestedSchema
 * accepted), or why it cannot receive them. Never mutates `params`; a `send` result never shares objects with it.
 * The caller still checks the host's declared capabilities (e.g. `elicitation.url`).
 */
export function translateElicitation(params: JsonObject, hostRevision: string): ElicitationTranslation {
  if (!revisionAtLeast(hostRevision, ELICITATION_FIRST_REVISION)) {
    return unsendable(`elicitation is not available to ${hostRevision} hosts (it needs ${ELICITATION_FIRST_REVISION} or later)`);
  }
  if (revisionAtLeast(hostRevision, ELICITATION_RICH_REVISION)) {
    return { kind: 'send', params: cloneJson(params) as JsonObject, droppedDefaults: false };
  }
  try {
    return { kind: 'send', ...downgradeTo20250618(params, hostRevision) };
  } catch (error) {
    if (error instanceof Unsendable) return unsendable(error.message);
    throw error;
  }
}

function unsendable(reason: string): ElicitationTranslation {
  return { kind: 'unsendable', reason };
}

function downgradeTo20250618(params: JsonObject, host: string): { params: JsonObject; droppedDefaults: boolean } {
  const mode = params.mode;
  if (mode === 'url') throw new Unsendable(`URL-mode elicitation cannot be sent to ${host} hosts (it needs ${ELICITATION_RICH_REVISION} or later)`);
  if (mode !== undefined && mode !== 'form') throw new Unsendable(`elicitation mode ${JSON.stringify(mode)} is unknown to ${host} hosts`);

  const out: [string, unknown][] = [];
  let schema: { schema: JsonObject; droppedDefaults: boolean } | undefined;
  for (const [key, value] of Object.entries(params)) {
    if (DROPPED_PARAMS_KEYS.has(key)) continue;
    if (key === 'requestedSchema') out.push([key, (schema = downgradeRequestedSchema(value as CheckedForm, host)).schema]);
    else out.push([key, cloneJson(value)]);
  }
  if (schema === undefined) throw new Unsendable(`a form elicitation without requestedSchema cannot be sent to ${host} hosts`);
  return { params: Object.fromEntries(out) as JsonObject, droppedDefaults: schema.droppedDefaults };
}

/** The form as checkRequestedSchema accepts it: an object whose `properties` are schema objects. */
type CheckedForm = JsonObject & { properties: Record<string, JsonObject> };

function downgradeRequestedSchema(form: CheckedForm, host: string): { schema: JsonObject; droppedDefaults: boolean } {
  const out: [string, unknown][] = [];
  let droppedDefaults = false;
  for (const [key, child] of Object.entries(form)) {
    if (key === '$schema') continue;
    if (key === 'properties') {
      const converted: [string, JsonObject][] = [];
      for (const [name, property] of Object.entries(form.properties)) {
        converted.push([name, downgradeProperty(name, property, host)]);
        if (property.type !== 'boolean' && 'default' in property) droppedDefaults = true;
      }
      out.push([key, Object.fromEntries(converted)]);
    } else {
      out.push([key, cloneJson(child)]);
    }
  }
  return { schema: Object.fromEntries(out) as JsonObject, droppedDefaults };
}

function downgradeProperty(name: string, property: JsonObject, host: string): JsonObject {
  const label = `property ${JSON.stringify(name)}`;
  const type = property.type;

  if (type === 'array') {
    const items = property.items;
    if (isObject(items) && ('enum' in items || 'anyOf' in items)) {
      throw new Unsendable(`${label} is a multi-select, which ${host} hosts cannot receive`);
    }
    throw new Unsendable(`${label} is an array, which ${host} hosts cannot receive`);
  }
  if (type !== 'string' && type !== 'number' && type !== 'integer' && type !== 'boolean') {
    throw new Unsendable(`${label} has type ${JSON.stringify(type)}, which ${host} hosts cannot receive`);
  }

  // A copy without `default` (2025-06-18 defines it on booleans only), a titled `oneOf` in `enum`/`enumNames` form.
  if (type !== 'string' || !('oneOf' in property)) {
    const out = cloneJson(property) as JsonObject;
    if (type !== 'boolean') delete out.default;
    return out;
  }
  if ('enum' in property || 'enumNames' in property) throw new Unsendable(`${label} has both oneOf and enum, which is ambiguous`);
  const out: [string, unknown][] = [];
  for (const [key, value] of Object.entries(property)) {
    if (key === 'default') continue;
    if (key === 'oneOf') {
      const { values, titles } = titledOptions(label, value);
      out.push(['enum', values], ['enumNames', titles]);
    } else {
      out.push([key, cloneJson(value)]);
    }
  }
  return Object.fromEntries(out) as JsonObject;
}

/** Splits a titled single-select `oneOf` into aligned `enum` / `enumNames` arrays. */
function titledOptions(label: string, oneOf: unknown): { values: string[]; titles: string[] } {
  if (!Array.isArray(oneOf)) throw new Unsendable(`${label} has a oneOf that is not an array`);
  const values: string[] = [];
  const titles: string[] = [];
  for (const option of oneOf) {
    if (!isObject(option) || typeof option.const !== 'string' || typeof option.title !== 'string') {
      throw new Unsendable(`${label} has a oneOf option that is not {const: string, title: string}`);
    }
    values.push(option.const);
    titles.push(option.title);
  }
  return { values, titles };
}
