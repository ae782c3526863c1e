/** @module e2e/harness/paths: where the e2e tests find the commands, fixtures, fixtures and golden files. */
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const SWITCHBOARD_BIN = fileURLToPath(new URL('../../../bin/switchboard.mjs', import.meta.url));
export const INCIDENT_DESK_BIN = fileURLToPath(new URL('../../../bin/incident-desk.mjs', import.meta.url));
export const LAB_UPSTREAM_MAIN = fileURLToPath(new URL('../../fixtures/lab-upstream/main.ts', import.meta.url));
export const SSE_UPSTREAM_MAIN = fileURLToPath(new URL('../../fixtures/sse-upstream/main.ts', import.meta.url));
export const CONFORMANCE_UPSTREAM_MAIN = fileURLToPath(new URL('../../fixtures/conformance-upstream/main.ts', import.meta.url));
export const SLOW_START_MAIN = fileURLToPath(new URL('../../fixtures/shared/slow-start.ts', import.meta.url));
export const WIRE_DOCS_DIR = fileURLToPath(new URL('../../../docs/wire/', import.meta.url));

/** Node flags that let a child run the TypeScript fixtures directly. */
export const TSX_FLAGS = ['--import', 'tsx'] as const;
