/** @module incident-desk/testing/paths: where the tests find the `incident-desk` command and the shared wire vector. */
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const INCIDENT_DESK_BIN = fileURLToPath(new URL('../../../bin/incident-desk.mjs', import.meta.url));
/** The team's shared wire vector, beside the checkout when there is one (tests cross-check against it). */
export const SHARED_RESTART_VECTOR_PATH = fileURLToPath(new URL('../../../../shared/vectors/incident-desk-restart.json', import.meta.url));
