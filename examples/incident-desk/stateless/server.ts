/**
 * @module incident-desk/stateless/server: createStatelessDeskServer, the same desk for 2026-07-28 requests: the
 * shared resources, templates and prompt, and the two tools that ask through `input_required`.
 */
import { type CacheHint, McpServer, type RequestStateCodec } from '@modelcontextprotocol/server';

import { registerTriagePrompt } from '../prompts/triage-incident.js';
import { registerIncidentResource } from '../resources/incident.js';
import { registerRosterResource } from '../resources/roster.js';
import { registerServiceStatusResource } from '../resources/service-status.js';
import { INSTRUCTIONS, SERVER_INFO } from '../server.js';
import type { DeskState } from './request-state.js';
import { registerStatelessRestartServiceTool } from './restart-service.js';
import { registerStatelessSummarizeIncidentTool } from './summarize-incident.js';

/** The desk's surface never changes while it runs: lists may be cached a minute by anyone. */
const SURFACE: CacheHint = { ttlMs: 60_000, cacheScope: 'public' };
/** Reads are live data (an incident, a service's health): not cached. */
const LIVE: CacheHint = { ttlMs: 0, cacheScope: 'public' };

export const CACHE_HINTS = {
  'server/discover': SURFACE,
  'tools/list': SURFACE,
  'prompts/list': SURFACE,
  'resources/list': SURFACE,
  'resources/templates/list': SURFACE,
  'resources/read': LIVE,
} as const;

export interface StatelessDeskOptions {
  /** Mints and verifies every requestState; the same codec (key) must serve every retry. */
  readonly states: RequestStateCodec<DeskState>;
  /** Out-of-band reports, e.g. why a requestState was refused (the wire only says that it was). */
  readonly onerror?: (error: Error) => void;
}

/** One instance per request (HTTP) or per connection (stdio); it keeps nothing between requests. */
export function createStatelessDeskServer(options: StatelessDeskOptions): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions: INSTRUCTIONS,
    cacheHints: CACHE_HINTS,
    requestState: { verify: options.states.verify },
  });
  if (options.onerror) server.server.onerror = options.onerror;
  registerRosterResource(server);
  registerIncidentResource(server);
  registerServiceStatusResource(server);
  registerTriagePrompt(server);
  registerStatelessSummarizeIncidentTool(server, options.states);
  registerStatelessRestartServiceTool(server, options.states);
  return server;
}
