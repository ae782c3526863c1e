/**
 * @module incident-desk/stateless/summarize-incident: `summarize_incident` for 2026-07-28 requests: asks the host's
 * model through one embedded `sampling/createMessage` and builds the summary from the reply on the retry.
 */
import { inputRequired, inputResponse, type McpServer, type RequestStateCodec } from '@modelcontextprotocol/server';

import { findIncident } from '../data.js';
import { textResult } from '../tools/host-failure.js';
import { plainSummary, summarySamplingParams } from '../tools/incident-summary.js';
import { sampledSummaryResult, SUMMARIZE_INCIDENT_TOOL, summarizeIncidentConfig, unknownIncidentResult } from '../tools/summarize-incident-tool.js';
import { canSample, declaredCapabilities } from './client-capabilities.js';
import { type DeskState, readDeskState, stateMatches } from './request-state.js';

/** The key of the one input request; the retry's `inputResponses` answers under the same key. */
export const SUMMARY_INPUT_KEY = 'summary';

export function registerStatelessSummarizeIncidentTool(server: McpServer, states: RequestStateCodec<DeskState>): void {
  server.registerTool(SUMMARIZE_INCIDENT_TOOL, summarizeIncidentConfig(), async ({ id }, ctx) => {
    const incident = findIncident(id);
    if (!incident) return unknownIncidentResult(id);
    // As in the legacy mode: a host that cannot sample gets a summary built without its model.
    if (!canSample(declaredCapabilities(ctx))) return textResult(plainSummary(incident));

    const state = readDeskState(ctx.mcpReq.requestState());
    if (state && !stateMatches(state, SUMMARIZE_INCIDENT_TOOL, incident.id)) {
      return textResult(`${SUMMARIZE_INCIDENT_TOOL}: the requestState was issued for ${state.tool} of "${state.subject}", not for summarising "${incident.id}"`, true);
    }
    const reply = inputResponse(ctx.mcpReq.inputResponses, SUMMARY_INPUT_KEY);
    if (!state || reply.kind !== 'sampling') {
      return inputRequired({
        inputRequests: { [SUMMARY_INPUT_KEY]: inputRequired.createMessage(summarySamplingParams(incident)) },
        requestState: await states.mint({ tool: SUMMARIZE_INCIDENT_TOOL, subject: incident.id }),
      });
    }
    return sampledSummaryResult(incident, reply.result);
  });
}
