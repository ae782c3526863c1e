/** @module incident-desk/tools/summarize-incident: `summarize_incident`, which asks the host's model when the host can sample. */
import type { CreateMessageResult, CreateMessageResultWithTools, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

import { findIncident } from '../data.js';
import type { ResolvedIncidentDeskOptions } from '../options.js';
import { hostFailureResult, textResult } from './host-failure.js';
import { plainSummary, summarySamplingParams } from './incident-summary.js';

const TOOL = 'summarize_incident';

function sampledText(result: CreateMessageResult | CreateMessageResultWithTools): string {
  const blocks = Array.isArray(result.content) ? result.content : [result.content];
  return blocks
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join('\n')
    .trim();
}

export function registerSummarizeIncidentTool(server: McpServer, options: ResolvedIncidentDeskOptions): void {
  server.registerTool(
    TOOL,
    {
      title: 'Summarise an incident',
      description: "Summarises one incident with the host's model (sampling); falls back to a plain summary when the host cannot sample",
      inputSchema: z.object({ id: z.string().describe('Incident id, e.g. INC-1042') }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ id }, ctx) => {
      const incident = findIncident(id);
      if (!incident) return textResult(`${TOOL}: unknown incident "${id}"`, true);
      // Checked first: a host that never declared sampling gets a summary built without its model.
      if (!server.server.getClientCapabilities()?.sampling) return textResult(plainSummary(incident));
      try {
        const result = await ctx.mcpReq.requestSampling(summarySamplingParams(incident), {
          relatedRequestId: ctx.mcpReq.id,
          timeout: options.requestTimeoutMs,
        });
        const text = sampledText(result);
        if (text === '') return textResult(`${TOOL}: the host's model returned no text`, true);
        return textResult(`Summary of ${incident.id} (by ${result.model}):\n${text}`);
      } catch (error) {
        return hostFailureResult(TOOL, 'sampling/createMessage', error, options.requestTimeoutMs);
      }
    },
  );
}
