/** @module Design 001's layer section is the one generated from .dependency-cruiser.mjs: run `npm run gen:layers` when this fails. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { EXCEPTIONS, LAYERS } from '../../.dependency-cruiser.mjs';
import { arrowLine, BEGIN, END, renderLayerSection, replaceLayerSection } from './layer-table.js';

const DOC = new URL('../../docs/design/001-architecture.md', import.meta.url);

test('docs/design/001-architecture.md carries the layer section generated from the config (npm run gen:layers)', () => {
  const doc = readFileSync(DOC, 'utf8');
  assert.equal(replaceLayerSection(doc, renderLayerSection(LAYERS, EXCEPTIONS)), doc);
});

test('the section names every room with its globs, the arrow line and every exception', () => {
  const section = renderLayerSection(LAYERS, EXCEPTIONS);
  for (const room of LAYERS.flatMap((layer) => layer.rooms)) assert.ok(section.includes(`| ${room.name} | \`${room.globs[0]}\``), room.name);
  for (const exception of EXCEPTIONS) assert.ok(section.includes(`\`${exception.from}\` → \`${exception.to[0]}\``), exception.from);
  assert.equal(
    arrowLine([{ layer: 'a', rooms: [{ name: 'top', globs: [], holds: '' }] }, { layer: 'b', rooms: [{ name: 'x', globs: [], holds: '' }, { name: 'y', globs: [], holds: '' }] }]),
    'top → {x, y}',
  );
});

test('replacing needs both markers, and keeps what is around them', () => {
  assert.equal(replaceLayerSection(`before\n${BEGIN}\nold\n${END}\nafter`, 'new'), 'before\nnew\nafter');
  assert.throws(() => replaceLayerSection('no markers here', 'new'), /markers/);
});
