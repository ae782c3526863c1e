/** @module The family of local errors: failures inside the process, told apart by a string `code`, never sent on the wire. */

/**
 * A failure that stays inside the gateway or the CLI: config, store, OAuth, transport, CLI and translation errors.
 * `code` is a stable string for programs (tests, callers that branch on it) and never crosses the wire; what a
 * peer sees is a wire error (protocol/errors.ts) or a gateway error (gateway/errors.ts) that a caller makes of it.
 * Each subclass fixes its own code (or, for a family of kinds, takes one per instance) and keeps its own message.
 */
export abstract class LocalError extends Error {
  abstract readonly code: string;
}
