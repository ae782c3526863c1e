/** @module Writes the layer section of docs/design/001-architecture.md from .dependency-cruiser.mjs (`npm run gen:layers`); a unit test fails when the two drift apart. */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EXCEPTIONS, LAYERS } from '../.dependency-cruiser.mjs';
import { renderLayerSection, replaceLayerSection } from '../src/architecture/layer-table.js';

const target = fileURLToPath(new URL('../docs/design/001-architecture.md', import.meta.url));
writeFileSync(target, replaceLayerSection(readFileSync(target, 'utf8'), renderLayerSection(LAYERS, EXCEPTIONS)));
console.log(`wrote ${target}`);
