/** @module Read-only access to HTTP request headers, as the protocol rules need it (the Fetch `Headers` object fits). */

/** Case-insensitive header lookup; `null` or `undefined` when absent. `Headers` from the Fetch API satisfies it. */
export interface HeaderSource {
  get(name: string): string | null | undefined;
}

/** A {@link HeaderSource} over a plain record (names in any case): for tests and non-HTTP callers. */
export function headerSource(headers: Readonly<Record<string, string | undefined>>): HeaderSource {
  const lower = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) lower.set(name.toLowerCase(), value);
  return { get: (name) => lower.get(name.toLowerCase()) };
}

/** The canonical names of the headers the era rules read. */
export const MCP_HEADER = {
  sessionId: 'mcp-session-id',
  protocolVersion: 'mcp-protocol-version',
  method: 'mcp-method',
  name: 'mcp-name',
} as const;
