/** @module The MCP protocol revisions this gateway knows, and version negotiation for the sessionful era. */

export const LEGACY_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export type LegacyRevision = (typeof LEGACY_REVISIONS)[number];

/** The newest sessionful revision: offered when a host asks for one we do not know. */
export const LATEST_LEGACY_REVISION: LegacyRevision = '2025-11-25';

/** Revision assumed when a 2025-era host sends no MCP-Protocol-Version header (spec: 2025-03-26). */
export const DEFAULT_HEADER_REVISION: LegacyRevision = '2025-03-26';

export function isLegacyRevision(value: unknown): value is LegacyRevision {
  return typeof value === 'string' && (LEGACY_REVISIONS as readonly string[]).includes(value);
}

/** The revision to answer an initialize with: the host's own if known, otherwise the latest. */
export function negotiateRevision(requested: unknown): LegacyRevision {
  return isLegacyRevision(requested) ? requested : LATEST_LEGACY_REVISION;
}

/** Revisions are ISO dates, so string order is chronological order. */
export function revisionAtLeast(revision: string, floor: string): boolean {
  return revision >= floor;
}
