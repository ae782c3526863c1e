/** @module incident-desk/resources/incident: the `incident://incidents/{id}` resource template. */
import { type McpServer, ResourceNotFoundError, ResourceTemplate } from '@modelcontextprotocol/server';

import { completeFrom, findIncident, INCIDENTS } from '../data.js';
import { singleVariable } from './template-variable.js';

export const INCIDENT_URI_TEMPLATE = 'incident://incidents/{id}';

export function incidentUri(id: string): string {
  return `incident://incidents/${encodeURIComponent(id)}`;
}

export function registerIncidentResource(server: McpServer): void {
  const template = new ResourceTemplate(INCIDENT_URI_TEMPLATE, {
    list: () => ({
      resources: INCIDENTS.map((incident) => ({
        uri: incidentUri(incident.id),
        name: incident.id,
        title: `${incident.id}: ${incident.title}`,
        mimeType: 'application/json',
      })),
    }),
    complete: { id: (value) => completeFrom(INCIDENTS.map((incident) => incident.id), value) },
  });
  server.registerResource(
    'incident',
    template,
    { title: 'Incident', description: 'One incident by id, with its timeline', mimeType: 'application/json' },
    (uri, variables) => {
      const incident = findIncident(decodeURIComponent(singleVariable(variables.id)));
      if (!incident) throw new ResourceNotFoundError(uri.href, `No incident at ${uri.href}`);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(incident, null, 2) }] };
    },
  );
}
