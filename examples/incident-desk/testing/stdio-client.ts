/** @module incident-desk/testing/stdio-client: spawns the real `incident-desk` over stdio behind an SDK Client. */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { ClientCapabilities, CreateMessageRequest, CreateMessageResult, ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';

import { INCIDENT_DESK_BIN, REPO_ROOT } from './paths.js';

export interface HostHandlers {
  elicit?: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>;
  sample?: (request: CreateMessageRequest) => CreateMessageResult | Promise<CreateMessageResult>;
}

export interface StdioHost {
  readonly client: Client;
  /** Errors the client transport saw, e.g. a stdout line that is not JSON-RPC. */
  readonly transportErrors: Error[];
  close(): Promise<void>;
}

/** A host declaring `capabilities`; handlers are registered only for what it declares. */
export async function connectStdioHost(capabilities: ClientCapabilities, handlers: HostHandlers = {}, args: string[] = []): Promise<StdioHost> {
  const client = new Client({ name: 'incident-desk-test-host', version: '1.0.0' }, { capabilities });
  if (capabilities.elicitation && handlers.elicit) client.setRequestHandler('elicitation/create', handlers.elicit);
  if (capabilities.sampling && handlers.sample) client.setRequestHandler('sampling/createMessage', handlers.sample);
  const transport = new StdioClientTransport({ command: process.execPath, args: [INCIDENT_DESK_BIN, ...args], cwd: REPO_ROOT, stderr: 'inherit' });
  const transportErrors: Error[] = [];
  client.onerror = (error) => transportErrors.push(error);
  await client.connect(transport);
  return { client, transportErrors, close: () => client.close() };
}
