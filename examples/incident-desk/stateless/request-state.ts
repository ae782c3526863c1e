/**
 * @module incident-desk/stateless/request-state: the desk's own `requestState`: which tool asked about which
 * subject, HMAC-signed and expiring, because the host echoes it back and may have altered it (§7.1).
 */
import { createRequestStateCodec, type RequestStateCodec } from '@modelcontextprotocol/server';

/** How long a question may stay unanswered before its state is refused (a person answers it, so minutes). */
export const DEFAULT_STATE_TTL_SECONDS = 300;

/** What a round remembers: the tool that asked, and what it asked about (a service name, an incident id). */
export interface DeskState {
  readonly tool: string;
  readonly subject: string;
}

export interface DeskStateCodecOptions {
  /** The HMAC key, at least 32 bytes. Every process that may receive a retry needs the same one. */
  readonly key: Uint8Array | string;
  readonly ttlSeconds?: number;
}

/**
 * Signs `{tool, subject}` with an expiry (the SDK's HMAC-SHA256 envelope: signed, not encrypted, so nothing
 * secret goes in). Its `verify` is installed as the server's `requestState.verify` hook, which runs before any
 * tool code: a state that fails the MAC, is malformed or has expired is answered -32602 and touches nothing.
 */
export function createDeskStateCodec(options: DeskStateCodecOptions): RequestStateCodec<DeskState> {
  const ttlSeconds = options.ttlSeconds ?? DEFAULT_STATE_TTL_SECONDS;
  const codec = createRequestStateCodec<DeskState>({ key: options.key, ttlSeconds });
  return {
    mint: (payload, ctx) => codec.mint(payload, ctx),
    // The wire answer stays the SDK's fixed "Invalid or expired requestState" (an attacker learns nothing
    // about which check failed); the reason given here reaches the server's onerror, i.e. the desk's log.
    verify: (state, ctx) =>
      codec.verify(state, ctx).catch((error: unknown) => {
        throw new Error(explainRefusal(error instanceof Error ? error.message : String(error), ttlSeconds), { cause: error });
      }),
  };
}

/** The SDK codec's one-word reasons, said for whoever reads the log. */
export function explainRefusal(reason: string, ttlSeconds: number): string {
  switch (reason) {
    case 'mac':
      return 'its signature does not match (altered, or minted under another key)';
    case 'expired':
      return `expired (a question is answerable for ${ttlSeconds} s)`;
    case 'malformed':
      return 'not a requestState this desk mints';
    default:
      return reason;
  }
}

/** The verified payload as a DeskState, or undefined when the request carried none (or a shape this desk never mints). */
export function readDeskState(value: unknown): DeskState | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const { tool, subject } = value as Record<string, unknown>;
  return typeof tool === 'string' && typeof subject === 'string' ? { tool, subject } : undefined;
}

/** Whether a verified state belongs to this call: same tool, same subject. A genuine state from another call does not. */
export function stateMatches(state: DeskState, tool: string, subject: string): boolean {
  return state.tool === tool && state.subject === subject;
}
