/** @module Writes schema/config.json from the zod config schema (`npm run gen`); a unit test fails when the two drift apart. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configJsonSchemaText } from '../src/config/json-schema.js';

const target = fileURLToPath(new URL('../schema/config.json', import.meta.url));
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, configJsonSchemaText());
console.log(`wrote ${target}`);
