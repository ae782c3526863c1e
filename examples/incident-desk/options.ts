/** @module incident-desk/options: settings shared by the server factory and its tools. */

/** How long the server waits for the host to answer its own requests (elicitation, sampling) by default. */
export const DEFAULT_HOST_REQUEST_TIMEOUT_MS = 600_000;

export interface IncidentDeskOptions {
  /** Timeout, in ms, for `elicitation/create` and `sampling/createMessage` sent to the host. */
  readonly requestTimeoutMs?: number;
}

export interface ResolvedIncidentDeskOptions {
  readonly requestTimeoutMs: number;
}

export function resolveOptions(options: IncidentDeskOptions = {}): ResolvedIncidentDeskOptions {
  return { requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_HOST_REQUEST_TIMEOUT_MS };
}
