/** @module incident-desk/prompts/triage-incident: the `triage_incident` prompt, one user message per incident. */
import { completable, type McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import * as z from 'zod';

import { completeFrom, findIncident, findService, INCIDENTS, type Incident } from '../data.js';

export function triageText(incident: Incident): string {
  const service = findService(incident.service);
  const health = service
    ? `${service.name} is ${service.state} (version ${service.version}, error rate ${(service.errorRate * 100).toFixed(1)}%, p99 ${service.p99Ms} ms).`
    : `${incident.service} has no status on record.`;
  return [
    `Triage incident ${incident.id} (${incident.severity}, ${incident.status}): ${incident.title}.`,
    `Affected service: ${health}`,
    'Timeline so far:',
    ...incident.timeline.map((entry) => `- ${entry}`),
    'Give the likely cause, the customer impact, the next three actions and who to page.',
  ].join('\n');
}

export function registerTriagePrompt(server: McpServer): void {
  server.registerPrompt(
    'triage_incident',
    {
      title: 'Triage an incident',
      description: 'Builds a triage request for one incident from its record and the affected service status',
      argsSchema: z.object({
        id: completable(z.string().describe('Incident id, e.g. INC-1042'), (value) =>
          completeFrom(INCIDENTS.map((incident) => incident.id), value),
        ),
      }),
    },
    ({ id }) => {
      const incident = findIncident(id);
      if (!incident) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown incident: ${id}`);
      return {
        description: `Triage of ${incident.id}`,
        messages: [{ role: 'user', content: { type: 'text', text: triageText(incident) } }],
      };
    },
  );
}
