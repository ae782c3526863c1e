/** @module incident-desk/tools/summarize-incident-tool: what `summarize_incident` is (name, schema, annotations) and what it answers, shared by both front ends. */
import type { CallToolResult, CreateMessageResult, CreateMessageResultWithTools } from '@modelcontextprotocol/server';
import * as z from 'zod';

import type { Incident } from '../data.js';
import { textResult } from './host-failure.js';
import { sampledText } from './incident-summary.js';

export const SUMMARIZE_INCIDENT_TOOL = 'summarize_incident';

/** The registration config; a fresh object (and zod schema) per server instance. */
export function summarizeIncidentConfig() {
  return {
    title: 'Summarise an incident',
    description: "Summarises one incident with the host's model (sampling); falls back to a plain summary when the host cannot sample",
    inputSchema: z.object({ id: z.string().describe('Incident id, e.g. INC-1042') }),
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
}

export function unknownIncidentResult(id: string): CallToolResult {
  return textResult(`${SUMMARIZE_INCIDENT_TOOL}: unknown incident "${id}"`, true);
}

/** The summary built from the host model's reply; a reply without text is an error. */
export function sampledSummaryResult(incident: Incident, reply: CreateMessageResult | CreateMessageResultWithTools): CallToolResult {
  const text = sampledText(reply);
  if (text === '') return textResult(`${SUMMARIZE_INCIDENT_TOOL}: the host's model returned no text`, true);
  return textResult(`Summary of ${incident.id} (by ${reply.model}):\n${text}`);
}
