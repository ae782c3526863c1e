/** @module incident-desk/tools/summarize-incident: `summarize_incident` for legacy sessions, which asks the host's model when the host can sample. */
import type { McpServer } from '@modelcontextprotocol/server';

import { findIncident } from '../data.js';
import type { ResolvedIncidentDeskOptions } from '../options.js';
import { hostFailureResult, textResult } from './host-failure.js';
import { plainSummary, summarySamplingParams } from './incident-summary.js';
import { sampledSummaryResult, SUMMARIZE_INCIDENT_TOOL, summarizeIncidentConfig, unknownIncidentResult } from './summarize-incident-tool.js';

export function registerSummarizeIncidentTool(server: McpServer, options: ResolvedIncidentDeskOptions): void {
  server.registerTool(SUMMARIZE_INCIDENT_TOOL, summarizeIncidentConfig(), async ({ id }, ctx) => {
    const incident = findIncident(id);
    if (!incident) return unknownIncidentResult(id);
    // Checked first: a host that never declared sampling gets a summary built without its model.
    if (!server.server.getClientCapabilities()?.sampling) return textResult(plainSummary(incident));
    try {
      const reply = await ctx.mcpReq.requestSampling(summarySamplingParams(incident), {
        relatedRequestId: ctx.mcpReq.id,
        timeout: options.requestTimeoutMs,
      });
      return sampledSummaryResult(incident, reply);
    } catch (error) {
      return hostFailureResult(SUMMARIZE_INCIDENT_TOOL, 'sampling/createMessage', error, options.requestTimeoutMs);
    }
  });
}
