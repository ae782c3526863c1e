/**
 * @module The translation table: what a host of each revision receives for each shape of question an
 * upstream asks. Every cell is computed by running {@link planQuestion} and describing its output
 * (a relayed message is diffed against what the upstream sent), never written by hand.
 * `npm run gen:translation` writes docs/translation.md from {@link renderTranslationPage}; a test
 * fails when the committed page and the code disagree.
 */

import type { JsonObject } from '../src/protocol/jsonrpc.js';
import { isObject } from '../src/protocol/jsonrpc.js';
import { fillHiddenDefaults } from '../src/translation/answers/answer-check.js';
import { ELICITATION_LIMITS } from '../src/translation/elicitation-limits.js';
import type { HostProfile, QuestionPlan } from '../src/translation/plan-question.js';
import { planQuestion } from '../src/translation/plan-question.js';

export interface UpstreamShape {
  id: string;
  label: string;
  method: 'elicitation/create' | 'sampling/createMessage';
  params: JsonObject;
}

/** Every capability each revision defines, declared in full (roots left out: no shape here uses it). */
export const TABLE_HOSTS: readonly HostProfile[] = [
  { revision: '2024-11-05', capabilities: { sampling: {} } },
  { revision: '2025-03-26', capabilities: { sampling: {} } },
  { revision: '2025-06-18', capabilities: { elicitation: {}, sampling: {} } },
  { revision: '2025-11-25', capabilities: { elicitation: { form: {}, url: {} }, sampling: { tools: {}, context: {} } } },
];

/** A one-property form elicitation, as an upstream speaking 2025-11-25 would send it. */
function form(property: JsonObject, extra: JsonObject = {}, schemaExtra: JsonObject = {}): JsonObject {
  return { ...extra, message: 'Please answer', requestedSchema: { ...schemaExtra, type: 'object', properties: { field: property } } };
}

const options = [
  { const: 'ops', title: 'Operations' },
  { const: 'dev', title: 'Development' },
];

export const UPSTREAM_SHAPES: readonly UpstreamShape[] = [
  { id: 'string', label: 'string', method: 'elicitation/create', params: form({ type: 'string', title: 'Name' }) },
  { id: 'string-default', label: 'string with `default`', method: 'elicitation/create', params: form({ type: 'string', title: 'Name', default: 'Ada' }) },
  { id: 'number-default', label: 'number with `default`', method: 'elicitation/create', params: form({ type: 'number', minimum: 0, default: 3 }) },
  { id: 'boolean-default', label: 'boolean with `default`', method: 'elicitation/create', params: form({ type: 'boolean', title: 'Notify', default: true }) },
  { id: 'enum', label: 'untitled single-select (`enum`)', method: 'elicitation/create', params: form({ type: 'string', enum: ['ops', 'dev'] }) },
  {
    id: 'enum-names',
    label: 'legacy titled single-select (`enum`+`enumNames`)',
    method: 'elicitation/create',
    params: form({ type: 'string', enum: ['ops', 'dev'], enumNames: ['Operations', 'Development'] }),
  },
  { id: 'one-of', label: 'titled single-select (`oneOf`) with `default`', method: 'elicitation/create', params: form({ type: 'string', title: 'Queue', oneOf: options, default: 'ops' }) },
  {
    id: 'multi-select',
    label: 'untitled multi-select (`items.enum`)',
    method: 'elicitation/create',
    params: form({ type: 'array', items: { type: 'string', enum: ['ops', 'dev'] } }),
  },
  {
    id: 'titled-multi-select',
    label: 'titled multi-select (`items.anyOf`)',
    method: 'elicitation/create',
    params: form({ type: 'array', items: { anyOf: options } }),
  },
  { id: 'url', label: 'URL mode', method: 'elicitation/create', params: { mode: 'url', message: 'Sign in', url: 'https://example.test/login', elicitationId: 'e1' } },
  {
    id: 'form-extras',
    label: 'form with `mode`, `elicitationId`, `$schema`',
    method: 'elicitation/create',
    params: form({ type: 'string' }, { mode: 'form', elicitationId: 'e2' }, { $schema: 'https://json-schema.org/draft/2020-12/schema' }),
  },
  {
    id: 'invalid-nested',
    label: 'not a flat form: a nested `object` property',
    method: 'elicitation/create',
    params: form({ type: 'object', properties: { street: { type: 'string' } } }),
  },
  {
    id: 'invalid-array',
    label: 'not a flat form: an array that is not a multi-select',
    method: 'elicitation/create',
    params: form({ type: 'array', items: { type: 'string' } }),
  },
  {
    id: 'sampling-tools',
    label: 'sampling with `tools`',
    method: 'sampling/createMessage',
    params: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 100, tools: [{ name: 'lookup', inputSchema: { type: 'object' } }] },
  },
  {
    id: 'sampling-context',
    label: 'sampling with `includeContext: "thisServer"`',
    method: 'sampling/createMessage',
    params: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 100, includeContext: 'thisServer' },
  },
];

export interface TranslationCell {
  shape: string;
  revision: string;
  plan: QuestionPlan;
  text: string;
}

/** Runs every shape past every host; rows in {@link UPSTREAM_SHAPES} order, hosts oldest first. */
export function translationCells(): TranslationCell[] {
  return UPSTREAM_SHAPES.flatMap((shape) =>
    TABLE_HOSTS.map((host) => {
      const plan = planQuestion(shape.method, shape.params, host);
      return { shape: shape.id, revision: host.revision, plan, text: describePlan(shape.params, plan) };
    }),
  );
}

/** What the host receives, in words, derived only from the plan (and the params it was made from). */
export function describePlan(sent: JsonObject, plan: QuestionPlan): string {
  if (plan.kind === 'refuse' && plan.hostCannot) return `not sent to this host; an operator may answer, else the upstream gets ${plan.error.code}: ${plan.error.message}`;
  if (plan.kind === 'refuse') return `refused (${plan.error.code}): ${plan.error.message}`;
  const changes = diff(sent, plan.params, []);
  return changes.length === 0 ? 'unchanged' : changes.join(', ');
}

const code = (text: string): string => `\`${text}\``;

/** Shortens `requestedSchema.properties.<name>.x` to `x`: every elicitation shape here has one property. */
function label(path: string[]): string {
  const inProperty = path[0] === 'requestedSchema' && path[1] === 'properties' && path.length > 3;
  return code((inProperty ? path.slice(3) : path).join('.'));
}

/** True when `to` is `from` projected element-wise onto one field, e.g. `enum` from `oneOf[].const`. */
function projects(from: unknown, to: unknown): boolean {
  return (
    Array.isArray(from) &&
    Array.isArray(to) &&
    from.length === to.length &&
    to.every((value, i) => {
      const option: unknown = from[i];
      return isObject(option) && Object.values(option).includes(value);
    })
  );
}

/** Key-level differences: a removed key whose value the added keys project is a conversion, the rest are drops, adds and changes. */
function diff(before: JsonObject, after: JsonObject, path: string[]): string[] {
  const removed = Object.keys(before).filter((key) => !(key in after));
  const added = Object.keys(after).filter((key) => !(key in before));
  const out: string[] = [];
  for (const key of removed) {
    const derived = added.filter((to) => projects(before[key], after[to]));
    if (derived.length > 0) {
      out.push(`${label([...path, key])} → ${derived.map((to) => label([...path, to])).join('+')}`);
      for (const to of derived) added.splice(added.indexOf(to), 1);
    } else {
      out.push(`${label([...path, key])} dropped`);
    }
  }
  for (const key of Object.keys(before)) {
    if (!(key in after)) continue;
    const [was, now] = [before[key], after[key]];
    if (isObject(was) && isObject(now)) out.push(...diff(was, now, [...path, key]));
    else if (JSON.stringify(was) !== JSON.stringify(now)) out.push(`${label([...path, key])} ${code(JSON.stringify(was))} → ${code(JSON.stringify(now))}`);
  }
  for (const key of added) out.push(`${label([...path, key])} ${code(JSON.stringify(after[key]))} added`);
  return out;
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** One markdown table per method: rows are upstream shapes, columns host revisions. */
export function renderTranslationTable(): string {
  const cells = translationCells();
  const header = `| Upstream sends | ${TABLE_HOSTS.map((host) => host.revision).join(' | ')} |`;
  const rule = `|---|${TABLE_HOSTS.map(() => '---').join('|')}|`;
  const sections: string[] = [];
  for (const method of ['elicitation/create', 'sampling/createMessage'] as const) {
    const rows = UPSTREAM_SHAPES.filter((shape) => shape.method === method).map((shape) => {
      const row = TABLE_HOSTS.map((host) => cells.find((cell) => cell.shape === shape.id && cell.revision === host.revision)?.text ?? '');
      return `| ${escapeCell(shape.label)} | ${row.map(escapeCell).join(' | ')} |`;
    });
    sections.push([`### \`${method}\``, '', header, rule, ...rows].join('\n'));
  }
  return sections.join('\n\n');
}

/** The defaults note's example, computed: what a 2025-06-18 host is sent, what it answers, what the upstream gets. */
export function defaultsExample(): { upstream: JsonObject; sent: JsonObject; answer: JsonObject; upstreamGets: JsonObject } {
  const upstream = {
    message: 'File it?',
    requestedSchema: {
      type: 'object',
      properties: { ticket: { type: 'string' }, owner: { type: 'string', default: 'Ada' }, notify: { type: 'boolean', default: true } },
      required: ['ticket'],
    },
  };
  const plan = planQuestion('elicitation/create', upstream, { revision: '2025-06-18', capabilities: { elicitation: {} } });
  if (plan.kind !== 'relay' || !plan.requestedSchema) throw new Error('the defaults example must be relayed');
  const answer = { action: 'accept', content: { ticket: 'CHG-1' } };
  return { upstream, sent: plan.params, answer, upstreamGets: fillHiddenDefaults(answer, plan.upstreamSchema, plan.requestedSchema) };
}

function renderShapes(): string {
  return UPSTREAM_SHAPES.map((shape) => `- ${shape.label}: \`${JSON.stringify(shape.params)}\``).join('\n');
}

/** The whole of docs/translation.md. */
export function renderTranslationPage(): string {
  const limits = ELICITATION_LIMITS;
  const example = defaultsExample();
  const json = (value: unknown): string => `\`${JSON.stringify(value)}\``;
  const hosts = TABLE_HOSTS.map((host) => `\`${host.revision}\` declaring \`${JSON.stringify(host.capabilities)}\``).join(', ');
  return `<!-- Generated by \`npm run gen:translation\` from scripts/translation-table.ts. Do not edit by hand. -->

# Translation table

When an upstream asks the host something (\`elicitation/create\`, \`sampling/createMessage\`), the
gateway decides per host session what the host receives: the question translated for the host's
protocol revision, not this host (an operator may answer it; else the upstream gets the error a host
lacking the capability sends, -32601 \`GW_ERR_HOST_LACKS_CAPABILITY\`), or a JSON-RPC error to the
upstream whoever would answer. This page shows that decision for a set of
upstream shapes and every revision the gateway speaks.

Every cell is computed by running the gateway's own \`planQuestion\` and describing its output: a
relayed message is diffed against what the upstream sent. The page is generated by
\`npm run gen:translation\`, and \`scripts/translation-table.test.ts\` fails if it differs from
what the code produces, so it cannot drift.

Each host declares every capability its revision defines: ${hosts}. A host that declares less gets
less (e.g. a 2025-11-25 host without \`elicitation.url\` has URL mode refused).

## Table

Property keys (\`oneOf\`, \`default\`, …) refer to the one property of the form; other paths are
relative to the request params.

${renderTranslationTable()}

## Upstream shapes

${renderShapes()}

## Notes

- A form's \`requestedSchema\` must be the flat object the revisions define: \`type: "object"\` and
  \`properties\` whose values are primitive schemas (string, including \`enum\`/\`enumNames\` and titled
  \`oneOf\`; number; integer; boolean; the 2025-11-25 multi-select arrays). A nested object, an array
  that is not a multi-select, \`$ref\` or composition (\`allOf\`, \`not\`, …), missing or non-object
  \`properties\`, a \`required\` naming no property, or a keyword of the wrong kind is refused with
  -32602 before it reaches any host, whatever its revision; the message and \`error.data.path\` name
  the offending path (e.g. \`requestedSchema.properties.field\`).
- An answer to a relayed form elicitation is validated against the schema **the host was sent**
  (after translation); an invalid answer never reaches the upstream.
- Defaults the host never saw (SEP-1034): a 2025-06-18 host is sent no \`default\` except on booleans,
  where a 2025-11-25 host would have pre-filled the form with them. When such a host answers \`accept\`
  and leaves out a property whose default it was not sent, the gateway puts the upstream's default
  there (only a default valid for its own property), and the completed answer must also satisfy the
  upstream's original schema. A boolean default the host saw is not filled in, nor is anything in
  \`decline\` or \`cancel\`; a 2025-11-25 host's answer reaches the upstream byte-identical. For example,
  the upstream asks ${json(example.upstream)}, the host is sent ${json(example.sent)} and answers
  ${json(example.answer)}, and the upstream receives ${json(example.upstreamGets)}.
- URL mode (2025-11-25): the upstream's \`notifications/elicitation/complete\` goes to the one host session
  that received that \`elicitationId\` from that upstream session, in a URL-mode \`elicitation/create\`
  or in the \`data.elicitations\` of a -32042 error (relayed to the host unchanged), whether the
  upstream session is per host or shared; on the stream of the call that asked while it is open,
  else outside any call. A completion for an id no host is waiting for is dropped.
- Limits: a \`requestedSchema\` over ${limits.schemaBytes / 1024} KB or nested deeper than ${limits.schemaDepth} levels is refused before it
  reaches any host; an answer's \`content\` over ${limits.answerBytes / (1024 * 1024)} MB or nested deeper than ${limits.answerDepth} levels never reaches
  the upstream.
- A question the host cannot receive is never left hanging: it goes to an operator when the route
  policy lets one answer (see [006](design/006-question-broker.md)), else the upstream gets -32601
  \`GW_ERR_HOST_LACKS_CAPABILITY\` at once. Never \`cancel\`, which would claim a person cancelled.
`;
}
