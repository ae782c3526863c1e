/** @module incident-desk/testing/paths: where the tests find the `incident-desk` command and the shared wire vector. */
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const INCIDENT_DESK_BIN = fileURLToPath(new URL('../../../bin/incident-desk.mjs', import.meta.url));
/** The team's shared wire vector, beside the checkout when there is one (tests cross-check against it). */
export const SHARED_RESTART_VECTOR_PATH = fileURLToPath(new URL('../../../../shared/vectors/incident-desk-restart.json', import.meta.url));
/** The team's shared vectors folder, beside the checkout when there is one. */
export const SHARED_VECTORS_DIR = fileURLToPath(new URL('../../../../shared/vectors/', import.meta.url));
/** The 2026-07-28 restart exchange this project pins for the stateless desk (same format as the shared vectors). */
export const MODERN_RESTART_VECTOR_PATH = fileURLToPath(new URL('./incident-desk-restart-2026-07-28.json', import.meta.url));
