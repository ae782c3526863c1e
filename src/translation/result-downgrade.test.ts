/** @module Tests of the tools/prompts/resources result downgrade: every fixture against every legacy host revision, plus a schema.json cross-check. */

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import { isObject } from '../protocol/jsonrpc.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { downgradeResult } from './result-downgrade.js';

const HOSTS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;
type Host = (typeof HOSTS)[number];

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** True when some object or array inside `value` (or itself) is frozen, i.e. shared with a frozen input. */
function hasFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return Object.isFrozen(value) || Object.values(value).some(hasFrozen);
}

// ---- 2025-11-25-shaped fixtures -------------------------------------------------------------

const ANN_FULL = { audience: ['user'], priority: 0.5, lastModified: '2025-01-01T00:00:00Z' };
const ANN_OLD = { audience: ['user'], priority: 0.5 };
const ICONS = [{ src: 'https://example.test/i.png', mimeType: 'image/png', sizes: ['48x48'] }];

const TOOL = {
  name: 'deploy',
  title: 'Deploy',
  description: 'Deploys a build',
  inputSchema: { type: 'object', properties: { env: { type: 'string' } }, required: ['env'] },
  outputSchema: { type: 'object', properties: { id: { type: 'string' } } },
  annotations: { title: 'Deploy', destructiveHint: true, openWorldHint: false },
  icons: ICONS,
  execution: { taskSupport: 'optional' },
  _meta: { 'example.test/owner': 'ops' },
};
const TOOL_24 = { name: 'deploy', description: 'Deploys a build', inputSchema: TOOL.inputSchema };
const TOOL_25_03 = { ...TOOL_24, annotations: TOOL.annotations };
const TOOL_25_06 = { ...TOOL_25_03, title: 'Deploy', outputSchema: TOOL.outputSchema, _meta: TOOL._meta };

const TEXT = { type: 'text', text: 'done', annotations: ANN_FULL, _meta: { k: 1 } };
const IMAGE = { type: 'image', data: 'aW1n', mimeType: 'image/png' };
const AUDIO = { type: 'audio', data: 'YXVk', mimeType: 'audio/wav', annotations: ANN_FULL };
const LINK = {
  type: 'resource_link',
  uri: 'file:///log.txt',
  name: 'log.txt',
  title: 'Build log',
  mimeType: 'text/plain',
  annotations: ANN_FULL,
  icons: ICONS,
  _meta: { k: 2 },
};
const EMBEDDED = { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'A', _meta: { k: 3 } } };
const EMBEDDED_OLD = { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'A' } };

const LINK_TEXT = '[resource link: log.txt "Build log" <file:///log.txt>]';
const AUDIO_24 = { type: 'text', text: '[audio content (audio/wav) omitted: not supported by 2024-11-05 hosts]', annotations: ANN_OLD };

const CALL = {
  content: [TEXT, IMAGE, AUDIO, LINK, EMBEDDED],
  structuredContent: { id: 'b-1', ok: true },
  isError: false,
  _meta: { trace: 't' },
};
const STRUCT_TEXT = { type: 'text', text: '{"id":"b-1","ok":true}' };

const PROMPT = {
  name: 'review',
  title: 'Review',
  description: 'Reviews code',
  arguments: [{ name: 'file', title: 'File', description: 'Path', required: true }],
  icons: ICONS,
  _meta: { k: 4 },
};
const PROMPT_24 = { name: 'review', description: 'Reviews code', arguments: [{ name: 'file', description: 'Path', required: true }] };
const PROMPT_25_06 = { ...PROMPT_24, title: 'Review', arguments: [{ name: 'file', title: 'File', description: 'Path', required: true }], _meta: { k: 4 } };

const RESOURCE = {
  uri: 'file:///a.txt',
  name: 'a.txt',
  title: 'A',
  description: 'Letter A',
  mimeType: 'text/plain',
  size: 1,
  annotations: ANN_FULL,
  icons: ICONS,
  _meta: { k: 5 },
};
const RESOURCE_24 = { uri: 'file:///a.txt', name: 'a.txt', description: 'Letter A', mimeType: 'text/plain', size: 1, annotations: ANN_OLD };
const RESOURCE_25_06 = { ...RESOURCE_24, title: 'A', annotations: ANN_FULL, _meta: { k: 5 } };

const TEMPLATE = { uriTemplate: 'file:///{name}', name: 'files', title: 'Files', mimeType: 'text/plain', annotations: ANN_FULL, icons: ICONS };
const TEMPLATE_24 = { uriTemplate: 'file:///{name}', name: 'files', mimeType: 'text/plain', annotations: ANN_OLD };
const TEMPLATE_25_06 = { ...TEMPLATE_24, title: 'Files', annotations: ANN_FULL };

const GET_PROMPT = {
  description: 'A review',
  messages: [
    { role: 'user', content: TEXT },
    { role: 'assistant', content: AUDIO },
    { role: 'user', content: LINK },
  ],
};
const READ = {
  contents: [
    { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'A', _meta: { k: 6 } },
    { uri: 'file:///b.bin', blob: 'Yg==' },
  ],
};

interface Case {
  name: string;
  method: string;
  input: JsonObject;
  /** Expected output per host below 2025-11-25 (2025-11-25 always expects the input itself). */
  expected: Record<Exclude<Host, '2025-11-25'>, JsonObject>;
  /** The input carries fields newer than 2025-11-25, which 2025-11-25 hosts get unchanged: no cross-check there. */
  beyond20251125?: true;
}

const CASES: Case[] = [
  {
    name: 'tools/list strips title, icons, outputSchema, annotations, execution, _meta',
    method: 'tools/list',
    input: { tools: [TOOL], nextCursor: 'c2' },
    expected: {
      '2024-11-05': { tools: [TOOL_24], nextCursor: 'c2' },
      '2025-03-26': { tools: [TOOL_25_03], nextCursor: 'c2' },
      '2025-06-18': { tools: [TOOL_25_06], nextCursor: 'c2' },
    },
  },
  {
    name: 'tools/call rewrites structuredContent, resource_link, audio; filters annotations and _meta',
    method: 'tools/call',
    input: CALL,
    expected: {
      '2024-11-05': {
        content: [
          { type: 'text', text: 'done', annotations: ANN_OLD },
          IMAGE,
          AUDIO_24,
          { type: 'text', text: LINK_TEXT, annotations: ANN_OLD },
          EMBEDDED_OLD,
          STRUCT_TEXT,
        ],
        isError: false,
        _meta: { trace: 't' },
      },
      '2025-03-26': {
        content: [
          { type: 'text', text: 'done', annotations: ANN_OLD },
          IMAGE,
          { type: 'audio', data: 'YXVk', mimeType: 'audio/wav', annotations: ANN_OLD },
          { type: 'text', text: LINK_TEXT, annotations: ANN_OLD },
          EMBEDDED_OLD,
          STRUCT_TEXT,
        ],
        isError: false,
        _meta: { trace: 't' },
      },
      '2025-06-18': {
        content: [TEXT, IMAGE, AUDIO, { ...LINK, icons: undefined }, EMBEDDED].map(dropUndefined),
        structuredContent: { id: 'b-1', ok: true },
        isError: false,
        _meta: { trace: 't' },
      },
    },
  },
  {
    name: 'tools/call does not duplicate a structuredContent text block already present',
    method: 'tools/call',
    input: { content: [{ type: 'text', text: '{\n  "id": "b-1",\n  "ok": true\n}' }], structuredContent: { id: 'b-1', ok: true } },
    expected: {
      '2024-11-05': { content: [{ type: 'text', text: '{\n  "id": "b-1",\n  "ok": true\n}' }] },
      '2025-03-26': { content: [{ type: 'text', text: '{\n  "id": "b-1",\n  "ok": true\n}' }] },
      '2025-06-18': { content: [{ type: 'text', text: '{\n  "id": "b-1",\n  "ok": true\n}' }], structuredContent: { id: 'b-1', ok: true } },
    },
  },
  {
    name: 'tools/call drops 2026 and unknown result fields for older hosts',
    method: 'tools/call',
    input: { content: [{ type: 'text', text: 'x' }], resultType: 'complete', 'vendor.test/extra': 1 },
    beyond20251125: true,
    expected: {
      '2024-11-05': { content: [{ type: 'text', text: 'x' }] },
      '2025-03-26': { content: [{ type: 'text', text: 'x' }] },
      '2025-06-18': { content: [{ type: 'text', text: 'x' }] },
    },
  },
  {
    name: 'prompts/list strips title (also on arguments), icons, _meta',
    method: 'prompts/list',
    input: { prompts: [PROMPT] },
    expected: {
      '2024-11-05': { prompts: [PROMPT_24] },
      '2025-03-26': { prompts: [PROMPT_24] },
      '2025-06-18': { prompts: [PROMPT_25_06] },
    },
  },
  {
    name: 'resources/list strips title, icons, _meta, annotations.lastModified',
    method: 'resources/list',
    input: { resources: [RESOURCE], _meta: { m: 1 } },
    expected: {
      '2024-11-05': { resources: [RESOURCE_24], _meta: { m: 1 } },
      '2025-03-26': { resources: [RESOURCE_24], _meta: { m: 1 } },
      '2025-06-18': { resources: [RESOURCE_25_06], _meta: { m: 1 } },
    },
  },
  {
    name: 'resources/templates/list strips title, icons, annotations.lastModified',
    method: 'resources/templates/list',
    input: { resourceTemplates: [TEMPLATE] },
    expected: {
      '2024-11-05': { resourceTemplates: [TEMPLATE_24] },
      '2025-03-26': { resourceTemplates: [TEMPLATE_24] },
      '2025-06-18': { resourceTemplates: [TEMPLATE_25_06] },
    },
  },
  {
    name: 'prompts/get downgrades message content blocks',
    method: 'prompts/get',
    input: GET_PROMPT,
    expected: {
      '2024-11-05': {
        description: 'A review',
        messages: [
          { role: 'user', content: { type: 'text', text: 'done', annotations: ANN_OLD } },
          { role: 'assistant', content: AUDIO_24 },
          { role: 'user', content: { type: 'text', text: LINK_TEXT, annotations: ANN_OLD } },
        ],
      },
      '2025-03-26': {
        description: 'A review',
        messages: [
          { role: 'user', content: { type: 'text', text: 'done', annotations: ANN_OLD } },
          { role: 'assistant', content: { type: 'audio', data: 'YXVk', mimeType: 'audio/wav', annotations: ANN_OLD } },
          { role: 'user', content: { type: 'text', text: LINK_TEXT, annotations: ANN_OLD } },
        ],
      },
      '2025-06-18': {
        description: 'A review',
        messages: [
          { role: 'user', content: TEXT },
          { role: 'assistant', content: AUDIO },
          { role: 'user', content: dropUndefined({ ...LINK, icons: undefined }) },
        ],
      },
    },
  },
  {
    name: 'resources/read strips _meta on contents below 2025-06-18',
    method: 'resources/read',
    input: READ,
    expected: {
      '2024-11-05': { contents: [{ uri: 'file:///a.txt', mimeType: 'text/plain', text: 'A' }, { uri: 'file:///b.bin', blob: 'Yg==' }] },
      '2025-03-26': { contents: [{ uri: 'file:///a.txt', mimeType: 'text/plain', text: 'A' }, { uri: 'file:///b.bin', blob: 'Yg==' }] },
      '2025-06-18': READ,
    },
  },
];

function dropUndefined(value: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

for (const c of CASES) {
  for (const host of HOSTS) {
    test(`${c.name} → ${host} host`, () => {
      const input = deepFreeze(structuredClone(c.input));
      const out = downgradeResult(c.method, input, host);
      if (host === '2025-11-25') {
        assert.equal(out, input);
        return;
      }
      assert.deepEqual(out, c.expected[host]);
      assert.equal(hasFrozen(out), false, 'output must not share objects with the input');
    });
  }
}

test('hosts newer than 2025-11-25 get the result itself', () => {
  assert.equal(downgradeResult('tools/call', CALL, '2026-07-28'), CALL);
});

test('unknown methods get a deep copy below 2025-11-25', () => {
  const input = deepFreeze({ anything: { nested: [1, 2] }, resultType: 'complete' });
  const out = downgradeResult('completion/complete', input, '2024-11-05');
  assert.deepEqual(out, input);
  assert.equal(hasFrozen(out), false);
});

test('unknown content block types become a text note', () => {
  const out = downgradeResult('tools/call', { content: [{ type: 'hologram', mimeType: 'x/holo' }] }, '2025-06-18');
  assert.deepEqual(out, { content: [{ type: 'text', text: '[hologram content (x/holo) omitted: not supported by 2025-06-18 hosts]' }] });
});

test('a JSON key __proto__ stays data', () => {
  const input = JSON.parse('{"content":[{"type":"text","text":"x"}],"_meta":{"__proto__":{"polluted":true}}}') as JsonObject;
  const out = downgradeResult('tools/call', input, '2024-11-05');
  assert.equal(Object.getPrototypeOf(out._meta), Object.prototype);
  assert.deepEqual(Object.keys(out._meta as object), ['__proto__']);
});

// ---- schema.json cross-check ------------------------------------------------------------------

const DEFINITION_BY_METHOD: Record<string, string> = {
  'tools/call': 'CallToolResult',
  'tools/list': 'ListToolsResult',
  'prompts/list': 'ListPromptsResult',
  'prompts/get': 'GetPromptResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
};
/** Values that are free-form JSON (schemas, structured output, metadata): not walked. */
const OPAQUE = new Set(['inputSchema', 'outputSchema', 'structuredContent', '_meta']);

/**
 * Property-name problems of `value` against schema `node`: keys the definition does not list,
 * missing required keys, wrong `type` const. `anyOf` passes when one branch has no problems.
 */
function problems(node: unknown, value: unknown, defs: JsonObject, path: string): string[] {
  if (!isObject(node)) return [];
  if (typeof node.$ref === 'string') return problems(defs[node.$ref.replace(/^#\/(definitions|\$defs)\//, '')], value, defs, path);
  if (Array.isArray(node.anyOf)) {
    const branches = node.anyOf.map((branch) => problems(branch, value, defs, path));
    return branches.some((b) => b.length === 0) ? [] : [`${path}: matches no anyOf branch (${branches.map((b) => b[0]).join(' | ')})`];
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => problems(node.items, item, defs, `${path}[${i}]`));
  if (!isObject(value) || !isObject(node.properties)) return [];
  const props = node.properties;
  const out: string[] = [];
  const typeConst = isObject(props.type) ? props.type.const : undefined;
  if (typeConst !== undefined && value.type !== typeConst) out.push(`${path}.type is not ${String(typeConst)}`);
  for (const key of Array.isArray(node.required) ? node.required : []) {
    if (typeof key === 'string' && !(key in value)) out.push(`${path}.${key} is required`);
  }
  for (const [key, child] of Object.entries(value)) {
    if (!Object.hasOwn(props, key)) out.push(`${path}.${key} is not defined`);
    else if (!OPAQUE.has(key)) out.push(...problems(props[key], child, defs, `${path}.${key}`));
  }
  return out;
}

test('downgraded results only use properties the host revision schema defines', (t) => {
  const schemaUrl = (rev: string): URL => new URL(`../../../shared/mcp-schemas/${rev}/schema.json`, import.meta.url);
  if (!HOSTS.every((rev) => existsSync(schemaUrl(rev)))) {
    t.skip('cross-check skipped: no ../shared/mcp-schemas beside this checkout');
    return;
  }
  let checked = 0;
  for (const host of HOSTS) {
    const schema = JSON.parse(readFileSync(schemaUrl(host), 'utf8')) as JsonObject;
    const defs = (schema.definitions ?? schema.$defs) as JsonObject;
    for (const c of CASES) {
      if (host === '2025-11-25' && c.beyond20251125) continue;
      const name = DEFINITION_BY_METHOD[c.method];
      assert.ok(name !== undefined && isObject(defs[name]), `${host} schema has no definition for ${c.method}`);
      const found = problems(defs[name], downgradeResult(c.method, c.input, host), defs, `${host} ${name}`);
      assert.deepEqual(found, [], `${c.name}`);
      checked++;
    }
  }
  assert.equal(checked, HOSTS.length * CASES.length - CASES.filter((c) => c.beyond20251125).length);
});
