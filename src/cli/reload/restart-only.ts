/** @module Which settings a reload cannot change in a running gateway (they wait for a restart), and the config a reload applies. */

import type { NormalizedConfig } from '../../config/types.js';
import { sameSettings } from '../../config/settings-text.js';

/** The http settings a reload applies: the session caps. The rest of `http` is the listening server's, fixed at start. */
const LIVE_HTTP = ['maxSessions', 'maxSessionsPerPrincipal', 'maxStandIns'] as const;

/**
 * The sections read once at start: the listening address and server, the store, the cluster link, authentication, the
 * console and its token, the requestState keys, the log format, tracing (the OpenTelemetry SDK is started once).
 */
const RESTART_ONLY = ['listen', 'store', 'cluster', 'auth', 'console', 'requestState', 'log', 'tracing'] as const satisfies readonly (keyof NormalizedConfig)[];

/** The config that runs after a reload: `next`, with what only a restart changes kept as `running` has it. */
export function appliedConfig(running: NormalizedConfig, next: NormalizedConfig): NormalizedConfig {
  const applied: NormalizedConfig = { ...next, http: { ...running.http } };
  for (const key of LIVE_HTTP) (applied.http as unknown as Record<string, unknown>)[key] = next.http[key];
  for (const key of RESTART_ONLY) (applied as unknown as Record<string, unknown>)[key] = running[key];
  return applied;
}

/** The settings `next` changes that only a restart applies, as config paths (`store`, `http.maxBodyBytes`), sorted. */
export function restartOnlyChanges(running: NormalizedConfig, next: NormalizedConfig): string[] {
  const changed: string[] = RESTART_ONLY.filter((key) => !sameSettings(running[key], next[key]));
  const live: ReadonlySet<string> = new Set(LIVE_HTTP);
  const keys = new Set([...Object.keys(running.http), ...Object.keys(next.http)]);
  for (const key of keys) {
    if (live.has(key)) continue;
    if (!sameSettings((running.http as unknown as Record<string, unknown>)[key], (next.http as unknown as Record<string, unknown>)[key])) changed.push(`http.${key}`);
  }
  return changed.sort();
}
