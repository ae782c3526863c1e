/** @module Tests of what is kept of a host's clientInfo. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { boundedClientInfo, MAX_CLIENT_INFO_ICONS, MAX_CLIENT_INFO_TEXT, MAX_CLIENT_INFO_URL } from './client-info.js';

test('only the schema fields are kept; anything else, however deep, is left behind', () => {
  const info = {
    name: 'host',
    version: '1.2',
    title: 'Host',
    websiteUrl: 'https://host.example',
    icons: [{ src: 'https://host.example/i.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'dark', extra: 1 }],
    extra: { a: { b: { c: {} } } },
  };
  assert.deepEqual(boundedClientInfo(info), {
    name: 'host',
    version: '1.2',
    title: 'Host',
    websiteUrl: 'https://host.example',
    icons: [{ src: 'https://host.example/i.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'dark' }],
  });
});

test('every field is bounded: long strings cut, too many icons or sizes trimmed, over-long URLs dropped', () => {
  const long = 'n'.repeat(MAX_CLIENT_INFO_TEXT + 10);
  const url = `https://x.example/${'u'.repeat(MAX_CLIENT_INFO_URL)}`;
  const icons = Array.from({ length: MAX_CLIENT_INFO_ICONS + 3 }, (_, i) => ({ src: `https://x.example/${i}.png`, sizes: Array(20).fill('1x1') }));
  const out = boundedClientInfo({ name: long, version: long, title: long, websiteUrl: url, icons: [{ src: url }, ...icons] });
  assert.equal(out.name, long.slice(0, MAX_CLIENT_INFO_TEXT));
  assert.equal(out.version, long.slice(0, MAX_CLIENT_INFO_TEXT));
  assert.equal(out.title, long.slice(0, MAX_CLIENT_INFO_TEXT));
  assert.equal('websiteUrl' in out, false);
  const kept = out.icons as { src: string; sizes: string[] }[];
  assert.equal(kept.length, MAX_CLIENT_INFO_ICONS - 1);
  assert.equal(kept[0]?.src, 'https://x.example/0.png');
  assert.equal(kept[0]?.sizes.length, MAX_CLIENT_INFO_ICONS);
});

test('wrong types are left out, and a missing name or version gets a stand-in', () => {
  assert.deepEqual(boundedClientInfo({ name: 7, version: ['1'], title: {}, icons: 'x', theme: 'neon' }), { name: 'unknown-host', version: '0' });
  assert.deepEqual(boundedClientInfo('not an object'), { name: 'unknown-host', version: '0' });
  assert.deepEqual(boundedClientInfo({ name: 'h', version: '1', icons: [{ src: 1 }, { src: 'a', theme: 'neon', sizes: [1, '2x2'] }] }), {
    name: 'h',
    version: '1',
    icons: [{ src: 'a', sizes: ['2x2'] }],
  });
});
