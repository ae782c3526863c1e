/** @module Tests of tool filters and URI-template matching used by the catalog. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { applyToolFilter, matchesTemplate } from './catalog.js';

const tools = ['search', 'fetch', 'delete'].map((name) => ({ name, inputSchema: { type: 'object' } }));

test('allow keeps only the listed tools, deny drops tools, rename changes the exposed name only', () => {
  const filtered = applyToolFilter(tools, { allow: ['search', 'fetch'], deny: ['fetch'], rename: { search: 'find' } });
  assert.deepEqual(filtered.map((t) => [t.exposedName, t.original]), [['find', 'search']]);
  assert.equal(filtered[0]?.tool.name, 'search', 'the upstream item is not modified');
});

test('without allow every tool not denied is kept', () => {
  assert.deepEqual(applyToolFilter(tools, { deny: ['delete'], rename: {} }).map((t) => t.exposedName), ['search', 'fetch']);
});

test('URI templates match one path segment per simple variable and anything for reserved expansion', () => {
  const cases: [string, string, boolean][] = [
    ['incident://incidents/{id}', 'incident://incidents/INC-1', true],
    ['incident://incidents/{id}', 'incident://incidents/a/b', false],
    ['incident://services/{name}/status', 'incident://services/payments-api/status', true],
    ['incident://services/{name}/status', 'incident://services//status', false],
    ['file:///{+path}', 'file:///etc/hosts', true],
    ['test://template/{id}/data', 'test://template/7/data', true],
    ['a.b/{x}', 'aXb/1', false],
  ];
  for (const [template, uri, expected] of cases) assert.equal(matchesTemplate(template, uri), expected, `${template} vs ${uri}`);
});
