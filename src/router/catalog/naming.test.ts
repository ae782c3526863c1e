/** @module Tests of the naming strategies. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { applyNaming } from './naming.js';

const inputs = [
  { upstream: 'desk', names: ['restart', 'summarize'] },
  { upstream: 'ops', names: ['restart', 'deploy'] },
];

function names(strategy: Parameters<typeof applyNaming>[1]) {
  const outcome = applyNaming(inputs, strategy, '_');
  return { exposed: Object.fromEntries([...outcome.exposed].map(([k, v]) => [k, `${v.upstream}:${v.name}`])), hidden: outcome.hidden.length };
}

test('prefix-on-conflict prefixes only the clashing names, for every holder', () => {
  assert.deepEqual(names('prefix-on-conflict'), {
    exposed: { desk_restart: 'desk:restart', summarize: 'desk:summarize', ops_restart: 'ops:restart', deploy: 'ops:deploy' },
    hidden: 0,
  });
});

test('prefix prefixes every name', () => {
  assert.deepEqual(Object.keys(names('prefix').exposed), ['desk_restart', 'desk_summarize', 'ops_restart', 'ops_deploy']);
});

test('priority keeps the first upstream and hides the later clash', () => {
  assert.deepEqual(names('priority'), {
    exposed: { restart: 'desk:restart', summarize: 'desk:summarize', deploy: 'ops:deploy' },
    hidden: 1,
  });
});

test('manual behaves like priority for clashes left unresolved by renames', () => {
  assert.equal(names('manual').exposed.restart, 'desk:restart');
});

test('a prefixed name never shadows an existing plain name', () => {
  const outcome = applyNaming(
    [
      { upstream: 'a', names: ['x', 'b_x'] },
      { upstream: 'b', names: ['x'] },
    ],
    'prefix-on-conflict',
    '_',
  );
  assert.equal(outcome.exposed.get('b_x')?.upstream, 'a');
  assert.equal(outcome.hidden.length, 1);
  assert.match(outcome.hidden[0]?.reason ?? '', /already taken by upstream 'a'/);
});
