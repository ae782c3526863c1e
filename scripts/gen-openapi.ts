/** @module Writes docs/openapi.json from the operator app's routes (`npm run gen:openapi`); openapi.test.ts fails when the two drift apart. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import type { OperatorDesk } from '../src/questions/operator-desk.js';
import { createOperatorRoutes } from '../src/edges/operator/operator-routes.js';

/** The document depends on the routes only; no request reaches this desk. */
const UNUSED_DESK: OperatorDesk = {
  list: async () => [],
  get: async () => undefined,
  answer: async () => ({ ok: false, kind: 'not-found', reason: 'no desk' }),
  subscribe: () => () => undefined,
  mayAnswer: () => false,
  approvals: async () => undefined,
};

const target = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));
writeFileSync(target, createOperatorRoutes({ desk: UNUSED_DESK, token: 'gen-openapi' }).openApiText());
console.log(`wrote ${target}`);
