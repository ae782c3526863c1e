/** @module incident-desk/resources/service-status: the `incident://services/{name}/status` resource template. */
import { type McpServer, ResourceNotFoundError, ResourceTemplate } from '@modelcontextprotocol/server';

import { completeFrom, findService, SERVICES } from '../data.js';
import { singleVariable } from './template-variable.js';

export const SERVICE_STATUS_URI_TEMPLATE = 'incident://services/{name}/status';

export function serviceStatusUri(name: string): string {
  return `incident://services/${encodeURIComponent(name)}/status`;
}

export function registerServiceStatusResource(server: McpServer): void {
  const template = new ResourceTemplate(SERVICE_STATUS_URI_TEMPLATE, {
    list: () => ({
      resources: SERVICES.map((service) => ({
        uri: serviceStatusUri(service.name),
        name: `${service.name} status`,
        mimeType: 'application/json',
      })),
    }),
    complete: { name: (value) => completeFrom(SERVICES.map((service) => service.name), value) },
  });
  server.registerResource(
    'service-status',
    template,
    { title: 'Service status', description: 'Health, version and error rate of one service', mimeType: 'application/json' },
    (uri, variables) => {
      const service = findService(decodeURIComponent(singleVariable(variables.name)));
      if (!service) throw new ResourceNotFoundError(uri.href, `No service at ${uri.href}`);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(service, null, 2) }] };
    },
  );
}
