/**
 * @module Downgrades tool, prompt and resource results from a newer upstream for an older host.
 *
 * Pure: no I/O. Results are assumed to be at most 2025-11-25-shaped. Below 2025-11-25 every object
 * the gateway knows is rebuilt from an allowlist ("field → first revision that defines it", taken
 * from schema/<rev>/schema.json), so fields the host's revision does not define are dropped.
 * Content blocks the host cannot represent become text blocks. See mcp-revisions.md §1 and §10.4.
 */

import { cloneJson } from '../protocol/json-clone.js';
import { isObject } from '../protocol/jsonrpc.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { revisionAtLeast } from '../protocol/revisions.js';

const R24 = '2024-11-05';
const R25_03 = '2025-03-26';
const R25_06 = '2025-06-18';
/** Hosts at or after this revision get results unchanged. */
export const RESULT_DOWNGRADE_CEILING = '2025-11-25';

/** Field name → first revision whose schema defines it on that object. */
type FieldTable = Readonly<Record<string, string>>;
type Child = (value: unknown, rev: string) => unknown;
interface Kind {
  fields: FieldTable;
  children?: Readonly<Record<string, Child>>;
}

const ANNOTATIONS: Kind = { fields: { audience: R24, priority: R24, lastModified: R25_06 } };
const RESOURCE_CONTENTS: Kind = { fields: { uri: R24, mimeType: R24, text: R24, blob: R24, _meta: R25_06 } };
const TOOL_ANNOTATIONS: Kind = {
  fields: { title: R25_03, readOnlyHint: R25_03, destructiveHint: R25_03, idempotentHint: R25_03, openWorldHint: R25_03 },
};
const annotated = { annotations: pickChild(ANNOTATIONS) };

const TEXT_BLOCK = { since: R24, fields: { type: R24, text: R24, annotations: R24, _meta: R25_06 }, children: annotated };
/** Content blocks by `type`: the field table, and the first revision that has the block at all. */
const CONTENT: Readonly<Record<string, Kind & { since: string }>> = {
  text: TEXT_BLOCK,
  image: { since: R24, fields: { type: R24, data: R24, mimeType: R24, annotations: R24, _meta: R25_06 }, children: annotated },
  resource: {
    since: R24,
    fields: { type: R24, resource: R24, annotations: R24, _meta: R25_06 },
    children: { ...annotated, resource: pickChild(RESOURCE_CONTENTS) },
  },
  audio: { since: R25_03, fields: { type: R25_03, data: R25_03, mimeType: R25_03, annotations: R25_03, _meta: R25_06 }, children: annotated },
  resource_link: {
    since: R25_06,
    fields: {
      type: R25_06, uri: R25_06, name: R25_06, title: R25_06, description: R25_06, mimeType: R25_06,
      size: R25_06, annotations: R25_06, _meta: R25_06, icons: RESULT_DOWNGRADE_CEILING,
    },
    children: annotated,
  },
};

const TOOL: Kind = {
  fields: {
    name: R24, description: R24, inputSchema: R24, annotations: R25_03, title: R25_06, outputSchema: R25_06,
    _meta: R25_06, icons: RESULT_DOWNGRADE_CEILING, execution: RESULT_DOWNGRADE_CEILING,
  },
  children: { annotations: pickChild(TOOL_ANNOTATIONS) },
};
const PROMPT_ARGUMENT: Kind = { fields: { name: R24, description: R24, required: R24, title: R25_06 } };
const PROMPT: Kind = {
  fields: { name: R24, description: R24, arguments: R24, title: R25_06, _meta: R25_06, icons: RESULT_DOWNGRADE_CEILING },
  children: { arguments: eachChild(pickChild(PROMPT_ARGUMENT)) },
};
const RESOURCE: Kind = {
  fields: {
    uri: R24, name: R24, description: R24, mimeType: R24, size: R24, annotations: R24,
    title: R25_06, _meta: R25_06, icons: RESULT_DOWNGRADE_CEILING,
  },
  children: annotated,
};
const RESOURCE_TEMPLATE: Kind = {
  fields: {
    uriTemplate: R24, name: R24, description: R24, mimeType: R24, annotations: R24,
    title: R25_06, _meta: R25_06, icons: RESULT_DOWNGRADE_CEILING,
  },
  children: annotated,
};
const PROMPT_MESSAGE: Kind = { fields: { role: R24, content: R24 }, children: { content: downgradeBlock } };

/** Result kinds by method. `_meta` is defined on every result in every revision. */
const RESULTS: Readonly<Record<string, Kind>> = {
  'tools/call': {
    fields: { _meta: R24, content: R24, isError: R24, structuredContent: R25_06 },
    children: { content: eachChild(downgradeBlock) },
  },
  'tools/list': { fields: { _meta: R24, nextCursor: R24, tools: R24 }, children: { tools: eachChild(pickChild(TOOL)) } },
  'prompts/list': { fields: { _meta: R24, nextCursor: R24, prompts: R24 }, children: { prompts: eachChild(pickChild(PROMPT)) } },
  'resources/list': {
    fields: { _meta: R24, nextCursor: R24, resources: R24 },
    children: { resources: eachChild(pickChild(RESOURCE)) },
  },
  'resources/templates/list': {
    fields: { _meta: R24, nextCursor: R24, resourceTemplates: R24 },
    children: { resourceTemplates: eachChild(pickChild(RESOURCE_TEMPLATE)) },
  },
  'prompts/get': {
    fields: { _meta: R24, description: R24, messages: R24 },
    children: { messages: eachChild(pickChild(PROMPT_MESSAGE)) },
  },
  'resources/read': { fields: { _meta: R24, contents: R24 }, children: { contents: eachChild(pickChild(RESOURCE_CONTENTS)) } },
};

/**
 * The result a host at `hostRevision` should receive for `method`. Never mutates `result`.
 * Hosts at 2025-11-25 or later get `result` itself. Below that, known methods are rebuilt from
 * the field tables (unknown fields dropped); unknown methods get a deep copy. The output never
 * shares objects with the input.
 */
export function downgradeResult(method: string, result: JsonObject, hostRevision: string): JsonObject {
  if (revisionAtLeast(hostRevision, RESULT_DOWNGRADE_CEILING)) return result;
  const kind = RESULTS[method];
  if (kind === undefined) return cloneJson(result) as JsonObject;
  const out = pick(result, kind, hostRevision);
  if (method === 'tools/call' && result.structuredContent !== undefined && !revisionAtLeast(hostRevision, R25_06)) {
    out.content = appendStructuredText(out.content, result.structuredContent);
  }
  return out;
}

/** Renders `structuredContent` as a text block at the end of `content`, unless an equal one is there. */
function appendStructuredText(content: unknown, structured: unknown): unknown[] {
  const blocks = Array.isArray(content) ? content : [];
  const text = JSON.stringify(structured);
  const present = blocks.some((b) => isObject(b) && b.type === 'text' && typeof b.text === 'string' && sameJson(b.text, text));
  return present ? blocks : [...blocks, { type: 'text', text }];
}

/** True when `candidate` is `serialized`, or parses to JSON that serializes to it (whitespace differs). */
function sameJson(candidate: string, serialized: string): boolean {
  if (candidate === serialized) return true;
  try {
    return JSON.stringify(JSON.parse(candidate)) === serialized;
  } catch {
    return false;
  }
}

/** One content block for the host: filtered, or a text note when the host lacks its type. */
function downgradeBlock(block: unknown, rev: string): unknown {
  if (!isObject(block)) return cloneJson(block);
  const type = typeof block.type === 'string' ? block.type : '';
  const kind = CONTENT[type];
  if (kind !== undefined && rev >= kind.since) return pick(block, kind, rev);
  const note: JsonObject = { type: 'text', text: describeUnsupported(block, type, rev) };
  if (block.annotations !== undefined) note.annotations = block.annotations;
  return pick(note, TEXT_BLOCK, rev);
}

function describeUnsupported(block: JsonObject, type: string, rev: string): string {
  const str = (v: unknown): string => (typeof v === 'string' ? v : '?');
  if (type === 'resource_link') {
    const title = typeof block.title === 'string' && block.title !== block.name ? ` "${block.title}"` : '';
    const description = typeof block.description === 'string' ? `: ${block.description}` : '';
    return `[resource link: ${str(block.name)}${title} <${str(block.uri)}>${description}]`;
  }
  const mime = typeof block.mimeType === 'string' ? ` (${block.mimeType})` : '';
  return `[${type === '' ? 'untyped' : type} content${mime} omitted: not supported by ${rev} hosts]`;
}

/**
 * A new object with only the fields `rev` defines for `kind`; children rebuilt, other values deep-copied (a scalar
 * is its own copy). Revisions are dates, so `rev < since` is "not yet defined" ({@link revisionAtLeast}).
 */
function pick(source: JsonObject, kind: Kind, rev: string): JsonObject {
  const out: [string, unknown][] = [];
  for (const [key, value] of Object.entries(source)) {
    const since = Object.hasOwn(kind.fields, key) ? kind.fields[key] : undefined;
    if (since === undefined || rev < since) continue;
    const child = kind.children !== undefined && Object.hasOwn(kind.children, key) ? kind.children[key] : undefined;
    if (child !== undefined) out.push([key, child(value, rev)]);
    else out.push([key, typeof value === 'object' && value !== null ? cloneJson(value) : value]);
  }
  return Object.fromEntries(out) as JsonObject;
}

function pickChild(kind: Kind): Child {
  return (value, rev) => (isObject(value) ? pick(value, kind, rev) : cloneJson(value));
}

function eachChild(child: Child): Child {
  return (value, rev) => {
    if (!Array.isArray(value)) return cloneJson(value);
    // As `map` would, but without a callback per item: holes stay holes.
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i += 1) if (i in value) out[i] = child(value[i], rev);
    return out;
  };
}
