/** @module Writes docs/translation.md from the translation table (`npm run gen:translation`); a unit test fails when the two drift apart. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderTranslationPage } from './translation-table.js';

const target = fileURLToPath(new URL('../docs/translation.md', import.meta.url));
writeFileSync(target, renderTranslationPage());
console.log(`wrote ${target}`);
