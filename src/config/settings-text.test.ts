/** @module Tests of the settings text a reload compares and the config version. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { configVersion, sameSettings, settingsText } from './settings-text.js';

test('key order does not matter; values, Infinity and patterns do', () => {
  assert.ok(sameSettings({ a: 1, b: { c: [1, 2], d: 'x' } }, { b: { d: 'x', c: [1, 2] }, a: 1 }));
  assert.ok(!sameSettings({ a: [1, 2] }, { a: [2, 1] }));
  assert.ok(!sameSettings({ t: Infinity }, { t: 0 }));
  assert.ok(!sameSettings({ p: /a/ }, { p: /b/ }));
  assert.ok(sameSettings({ a: 1, gone: undefined }, { a: 1 }));
  assert.equal(settingsText({ t: -Infinity }), '{"t":"#number:-Infinity"}');
});

test('the config version ignores where the file was read from and follows every setting', () => {
  const base = { source: '/etc/a.yaml', pageSize: 100, upstreams: [{ name: 'x' }] };
  assert.match(configVersion(base), /^sha256:[0-9a-f]{12}$/);
  assert.equal(configVersion(base), configVersion({ ...base, source: '/srv/b.yaml' }));
  assert.notEqual(configVersion(base), configVersion({ ...base, pageSize: 50 }));
});
