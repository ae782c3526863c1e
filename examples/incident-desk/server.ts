/** @module incident-desk/server: createIncidentDeskServer, the example upstream with resources, a prompt and two host-calling tools. */
import { McpServer } from '@modelcontextprotocol/server';

import { type IncidentDeskOptions, resolveOptions } from './options.js';
import { registerTriagePrompt } from './prompts/triage-incident.js';
import { registerIncidentResource } from './resources/incident.js';
import { registerRosterResource } from './resources/roster.js';
import { registerServiceStatusResource } from './resources/service-status.js';
import { registerRestartServiceTool } from './tools/restart-service.js';
import { registerSummarizeIncidentTool } from './tools/summarize-incident.js';

export const SERVER_INFO = { name: 'incident-desk', version: '0.1.0' } as const;

export const INSTRUCTIONS = 'Incident desk: read incidents and service status, triage, summarise, and restart services with approval.';

/** One server instance per connection (stdio) or per HTTP session. */
export function createIncidentDeskServer(options: IncidentDeskOptions = {}): McpServer {
  const resolved = resolveOptions(options);
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
  registerRosterResource(server);
  registerIncidentResource(server);
  registerServiceStatusResource(server);
  registerTriagePrompt(server);
  registerSummarizeIncidentTool(server, resolved);
  registerRestartServiceTool(server, resolved);
  return server;
}
