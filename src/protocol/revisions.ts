/** @module The MCP protocol revisions this gateway knows, their era, and version negotiation for the sessionful era. */

export const LEGACY_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export type LegacyRevision = (typeof LEGACY_REVISIONS)[number];

/** The newest sessionful revision: offered when a host asks for one we do not know. */
export const LATEST_LEGACY_REVISION: LegacyRevision = '2025-11-25';

/** Revision assumed when a 2025-era host sends no MCP-Protocol-Version header (spec: 2025-03-26). */
export const DEFAULT_HEADER_REVISION: LegacyRevision = '2025-03-26';

/** The first stateless revision: no initialize, no sessions, the `_meta` envelope on every request. */
export const MODERN_REVISION = '2026-07-28';

/** The stateless revisions this gateway serves, newest first. */
export const MODERN_REVISIONS = [MODERN_REVISION] as const;
export type ModernRevision = (typeof MODERN_REVISIONS)[number];

/** Every revision this gateway serves, newest first (what `server/discover` and -32022 list). */
export const SUPPORTED_REVISIONS = [...MODERN_REVISIONS, ...LEGACY_REVISIONS] as const;
export type SupportedRevision = (typeof SUPPORTED_REVISIONS)[number];

/** `legacy`: initialize and sessions (2024-11-05 … 2025-11-25); `modern`: stateless, per-request envelope (2026-07-28 on). */
export type Era = 'legacy' | 'modern';

const REVISION_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

export function isLegacyRevision(value: unknown): value is LegacyRevision {
  return typeof value === 'string' && (LEGACY_REVISIONS as readonly string[]).includes(value);
}

export function isModernRevision(value: unknown): value is ModernRevision {
  return typeof value === 'string' && (MODERN_REVISIONS as readonly string[]).includes(value);
}

export function isSupportedRevision(value: unknown): value is SupportedRevision {
  return typeof value === 'string' && (SUPPORTED_REVISIONS as readonly string[]).includes(value);
}

/**
 * The era a revision string belongs to, by date, known or not: a future revision is modern (the SDK's
 * `isModernProtocolVersion` rule), an older unknown one (2024-10-07) legacy. `undefined` when the
 * value is not shaped like a revision at all.
 */
export function eraOf(revision: unknown): Era | undefined {
  if (typeof revision !== 'string' || !REVISION_SHAPE.test(revision)) return undefined;
  return revisionAtLeast(revision, MODERN_REVISION) ? 'modern' : 'legacy';
}

/** The revision to answer an initialize with: the host's own if known, otherwise the latest. */
export function negotiateRevision(requested: unknown): LegacyRevision {
  return isLegacyRevision(requested) ? requested : LATEST_LEGACY_REVISION;
}

/** Revisions are ISO dates, so string order is chronological order. */
export function revisionAtLeast(revision: string, floor: string): boolean {
  return revision >= floor;
}
