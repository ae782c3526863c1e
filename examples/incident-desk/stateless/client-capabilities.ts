/** @module incident-desk/stateless/client-capabilities: what the host declared on this one request (2026-07-28 has no session to remember it). */
import { CLIENT_CAPABILITIES_META_KEY, type ServerContext } from '@modelcontextprotocol/server';

type Declared = Readonly<Record<string, unknown>>;

function asObject(value: unknown): Declared | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Declared) : undefined;
}

/** The `clientCapabilities` of the request's `_meta` envelope ({} when absent). */
export function declaredCapabilities(ctx: ServerContext): Declared {
  const envelope = asObject(ctx.mcpReq.envelope);
  return asObject(envelope?.[CLIENT_CAPABILITIES_META_KEY]) ?? {};
}

/** Form elicitation: `elicitation.form`, or a bare `elicitation: {}` (which means form only). */
export function canElicitForm(declared: Declared): boolean {
  const elicitation = asObject(declared.elicitation);
  if (!elicitation) return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

/** Plain sampling (the desk's request uses no tools and no context inclusion). */
export function canSample(declared: Declared): boolean {
  return asObject(declared.sampling) !== undefined;
}
