/** @module Writes docs/openapi.json from the operator route table (`npm run gen:openapi`); openapi.test.ts fails when the two drift apart. */

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { operatorOpenApiText } from './openapi.js';

const target = fileURLToPath(new URL('../../../docs/openapi.json', import.meta.url));
writeFileSync(target, operatorOpenApiText());
process.stdout.write(`wrote ${target}\n`);
