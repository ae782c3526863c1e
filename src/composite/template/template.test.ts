/** @module Tests of the composite template language: parsing, lookups, rendering, comparisons, filters, references and hostile input. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TemplateScope } from './ast.js';
import { TEMPLATE_LIMITS, TemplateError } from './ast.js';
import { truthy } from './evaluate.js';
import { parseTemplateString } from './parse.js';
import { templateRefs } from './refs.js';
import { render, renderText } from './render.js';

const scope: TemplateScope = {
  input: { service: 'api', count: 3, tags: ['a', 'b'], nested: { 'odd key': 'x', deep: { v: true } }, empty: '', nothing: null },
  steps: { lookup: { text: 'found it', structured: { id: 7, items: [{ name: 'one' }, { name: 'two' }] }, isError: false } },
  item: { name: 'web' },
  index: 2,
};

test('a string that is exactly one template renders the raw value', () => {
  assert.equal(render('{{ input.count }}', scope), 3);
  assert.deepEqual(render('{{input.tags}}', scope), ['a', 'b']);
  assert.deepEqual(render('{{ steps.lookup.structured }}', scope), { id: 7, items: [{ name: 'one' }, { name: 'two' }] });
  assert.equal(render('{{ index }}', scope), 2);
  assert.equal(render('{{ input.nothing }}', scope), null);
  assert.equal(render('{{ input.missing }}', scope), undefined);
});

test('the raw value is a copy: rendering never aliases the scope', () => {
  const out = render('{{ input.tags }}', scope) as string[];
  out.push('c');
  assert.deepEqual((scope.input as { tags: string[] }).tags, ['a', 'b']);
});

test('other strings are interpolated', () => {
  assert.equal(render('restart {{ input.service }} x{{input.count}}', scope), 'restart api x3');
  assert.equal(render('tags: {{ input.tags }}', scope), 'tags: ["a","b"]');
  assert.equal(render('[{{ input.nothing }}|{{ input.missing }}]', scope), '[|]');
  assert.equal(render(' {{ input.count }}', scope), ' 3');
  assert.equal(render('no templates } here {', scope), 'no templates } here {');
  assert.equal(render('', scope), '');
  assert.equal(renderText('{{ input.count }}', scope), '3');
  assert.equal(renderText('{{ input.nested.deep }}', scope), '{"v":true}');
});

test('paths: dots, indexes, quoted keys', () => {
  assert.equal(render('{{ steps.lookup.structured.items[1].name }}', scope), 'two');
  assert.equal(render('{{ steps["lookup"].structured["items"][0]["name"] }}', scope), 'one');
  assert.equal(render("{{ input.nested['odd key'] }}", scope), 'x');
  assert.equal(render('{{ item.name }}', scope), 'web');
  assert.equal(render('{{ input.tags[5] }}', scope), undefined);
});

test('a type error in a path renders undefined, not an exception', () => {
  assert.equal(render('{{ input.service.length }}', scope), undefined);
  assert.equal(render('{{ input.service[0] }}', scope), undefined);
  assert.equal(render('{{ input.count.x }}', scope), undefined);
  assert.equal(render('{{ input.tags.length }}', scope), undefined);
  assert.equal(render('{{ input.tags["0"] }}', scope), undefined);
  assert.equal(render('{{ index.x }}', scope), undefined);
  assert.equal(render('{{ input.nested[0] }}', scope), undefined);
  assert.equal(render('{{ steps.missing.text }}', {}), undefined);
});

test('objects and arrays render deeply; undefined members are left out, undefined elements become null', () => {
  const args = { service: '{{ input.service }}', n: '{{ input.count }}', list: ['{{ item.name }}', '{{ input.missing }}', 4], keep: true, gone: '{{ input.missing }}' };
  assert.deepEqual(render(args, scope), { service: 'api', n: 3, list: ['web', null, 4], keep: true });
  assert.equal(render(5, scope), 5);
  assert.equal(render(null, scope), null);
});

test('comparisons and negation', () => {
  assert.equal(render("{{ input.service == 'api' }}", scope), true);
  assert.equal(render('{{ input.service != "api" }}', scope), false);
  assert.equal(render('{{ input.count == 3 }}', scope), true);
  assert.equal(render("{{ input.count == '3' }}", scope), false);
  assert.equal(render('{{ steps.lookup.isError == false }}', scope), true);
  assert.equal(render('{{ input.missing == null }}', scope), true);
  assert.equal(render('{{ input.nothing == null }}', scope), true);
  assert.equal(render('{{ !steps.lookup.isError }}', scope), true);
  assert.equal(render('{{ !input.service }}', scope), false);
  assert.equal(render('{{ input.tags == input.tags }}', scope), true);
  assert.equal(render('{{ -1.5 == -1.5 }}', scope), true);
  assert.equal(render("{{ 'a\\'b' == \"a'b\" }}", scope), true);
});

test('comparisons of objects and arrays are by content, at any depth; a value that is not JSON equals nothing', () => {
  assert.equal(render('{{ input.a == input.b }}', { input: { a: { x: [1, { y: 2 }], z: null }, b: { z: null, x: [1, { y: 2 }] } } }), true);
  assert.equal(render('{{ input.a == input.b }}', { input: { a: [1, 2], b: [2, 1] } }), false);
  let a: unknown = 'leaf';
  let b: unknown = 'leaf';
  for (let i = 0; i < TEMPLATE_LIMITS.depth * 2; i++) {
    a = { d: [a] };
    b = { d: [b] };
  }
  assert.equal(render('{{ input.a == input.b }}', { input: { a, b } }), true, 'equal values nested past the render depth still compare equal');
  assert.equal(render('{{ input.a != input.b }}', { input: { a, b: { d: [b] } } }), true);
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  assert.equal(render('{{ input.c == input.c }}', { input: { c: cycle } }), false, 'a cycle is not JSON: it compares unequal, and the comparison ends');
});

test('filters: json, length, default', () => {
  assert.equal(render('{{ input.tags | json }}', scope), '["a","b"]');
  assert.equal(render('{{ input.service | json }}', scope), '"api"');
  assert.equal(render('{{ input.missing | json }}', scope), 'null');
  assert.equal(render('{{ input.tags | length }}', scope), 2);
  assert.equal(render('{{ input.service | length }}', scope), 3);
  assert.equal(render('{{ input.nested | length }}', scope), 2);
  assert.equal(render('{{ input.count | length }}', scope), 0);
  assert.equal(render("{{ input.missing | default('none') }}", scope), 'none');
  assert.equal(render("{{ input.empty | default('none') }}", scope), 'none');
  assert.equal(render('{{ input.nothing | default(0) }}', scope), 0);
  assert.equal(render("{{ input.service | default('none') }}", scope), 'api');
  assert.equal(render('{{ input.tags | length == 2 }}', scope), true);
  assert.equal(render('{{ !input.tags | length }}', scope), false);
  assert.equal(render("{{ input.missing | default('x') | length }}", scope), 1);
});

test('truthy', () => {
  for (const value of [false, '', 0, null, undefined, [], 'false', Number.NaN]) assert.equal(truthy(value), false, JSON.stringify(value));
  for (const value of [true, 'x', 1, -1, {}, [0], 'true', '0']) assert.equal(truthy(value), true, JSON.stringify(value));
});

test('parse errors are clear', () => {
  const cases: [string, RegExp][] = [
    ['{{ input.a', /never closed/],
    ['{{ }}', /empty/],
    ['{{ foo.bar }}', /unknown name "foo"/],
    ['{{ constructor }}', /unknown name "constructor"/],
    ['{{ this.x }}', /unknown name/],
    ['{{ input. }}', /expected a name after "."/],
    ['{{ input[ }}', /index or a quoted key/],
    ['{{ input["a" }}', /expected "]"/],
    ["{{ 'abc }}", /never closed/],
    ['{{ input | upper }}', /unknown filter "upper"/],
    ['{{ input | default }}', /default needs a value/],
    ['{{ input | default(input.x) }}', /expected a literal/],
    ['{{ !!input }}', /only one "!"/],
    ['{{ input == }}', /empty|ends too early/],
    ['{{ input input }}', /expected "}}"/],
    ['{{ input.a() }}', /expected "}}"/],
    ['{{ input = 1 }}', /expected "}}"/],
    ['{{ "\\x" }}', /unknown escape/],
    ['{{ input.a > 1 }}', /expected "}}"/],
  ];
  for (const [text, pattern] of cases) {
    const parsed = parseTemplateString(text);
    assert.equal(parsed.ok, false, text);
    if (!parsed.ok) assert.match(parsed.reason, pattern, text);
    assert.throws(() => render(text, scope), TemplateError, text);
  }
});

test('hostile input: no prototype, no code, bounded work', () => {
  assert.equal(render('{{ input.constructor }}', scope), undefined);
  assert.equal(render('{{ input.__proto__ }}', scope), undefined);
  assert.equal(render('{{ input["__proto__"] }}', scope), undefined);
  assert.equal(render('{{ input.toString }}', scope), undefined);
  assert.equal(render('{{ input.hasOwnProperty }}', scope), undefined);
  assert.equal(render('{{ input.tags.constructor }}', scope), undefined);
  assert.equal(render('{{ input.tags.map }}', scope), undefined);
  assert.equal(render('{{ steps.constructor.prototype }}', scope), undefined);
  assert.equal(render('{{ input }}', {}), undefined);
  // a JSON key named __proto__ is data, and is looked up as data
  const parsed = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
  assert.deepEqual(render('{{ input.__proto__.polluted }}', { input: parsed }), true);
  const out = render({ x: '{{ input }}' }, { input: parsed }) as Record<string, unknown>;
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(Object.getPrototypeOf(out.x), Object.prototype);
  // a class instance or a getter is not a plain JSON value
  class Secret {
    key = 'hidden';
  }
  assert.equal(render('{{ input.s.key }}', { input: { s: new Secret() } }), undefined);
  const withGetter = Object.defineProperty({}, 'g', { get: () => 'ran', enumerable: true });
  assert.equal(render('{{ input.g }}', { input: withGetter }), undefined);
  assert.equal(render('{{ input.f }}', { input: { f: () => 1 } }), undefined);

  const long = 'x'.repeat(1_000_000);
  assert.equal(render(`${long}{{ input.service }}`, scope), `${long}api`);
  assert.throws(() => render('{{'.repeat(10_000) + '}}', scope), TemplateError);
});

test('hostile input: long expressions and deep values fail cleanly', () => {
  const longPath = `{{ input${'.a'.repeat(TEMPLATE_LIMITS.expressionChars)} }}`;
  assert.throws(() => render(longPath, scope), /longer than/);
  assert.throws(() => render(`{{ '${'y'.repeat(5000)}' }}`, scope), /longer than/);
  const manyOpen = '{{'.repeat(50_000);
  assert.equal(parseTemplateString(manyOpen).ok, false);
  let deep: unknown = '{{ input.service }}';
  for (let i = 0; i < 100; i++) deep = { d: deep };
  assert.throws(() => render(deep, scope), /deeper than/);
  let deepInput: unknown = 1;
  for (let i = 0; i < 10_000; i++) deepInput = [deepInput];
  assert.throws(() => render('{{ input }}', { input: deepInput }), /deeper than/);
  assert.equal(render('{{ input | length }}', { input: deepInput }), 1);
});

test('templateRefs lists every path, with where a bad template is', () => {
  const refs = templateRefs({ a: '{{ input.x }} and {{ steps.one.text }}', b: ['{{ steps.two.structured.items[0] }}', 3], c: "{{ steps['three'] == item }}" });
  assert.deepEqual(refs, {
    ok: true,
    refs: [['input', 'x'], ['steps', 'one', 'text'], ['steps', 'two', 'structured', 'items', '0'], ['steps', 'three'], ['item']],
  });
  assert.deepEqual(templateRefs('plain'), { ok: true, refs: [] });
  assert.deepEqual(templateRefs(42), { ok: true, refs: [] });
  const bad = templateRefs({ args: { list: ['ok', '{{ nope }}'] } });
  assert.equal(bad.ok, false);
  if (!bad.ok) {
    assert.equal(bad.at, 'args.list[1]');
    assert.match(bad.reason, /unknown name "nope"/);
  }
  const top = templateRefs('{{ input');
  assert.equal(top.ok, false);
  if (!top.ok) assert.equal(top.at, undefined);
  const odd = templateRefs({ 'a b': '{{ x }}' });
  if (!odd.ok) assert.equal(odd.at, '["a b"]');
});
