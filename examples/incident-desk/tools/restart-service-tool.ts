/** @module incident-desk/tools/restart-service-tool: what `restart_service` is (name, schema, annotations) and what it answers, shared by both front ends. */
import type { CallToolResult } from '@modelcontextprotocol/server';
import * as z from 'zod';

import { SERVICES } from '../data.js';
import { textResult } from './host-failure.js';
import type { RestartDecision } from './restart-approval.js';

export const RESTART_SERVICE_TOOL = 'restart_service';

export const SERVICE_NAMES: readonly string[] = SERVICES.map((service) => service.name);

/** The registration config; a fresh object (and zod schema) per server instance. */
export function restartServiceConfig() {
  return {
    title: 'Restart a service',
    description: 'Restarts one service after a human approves it with a change ticket (asked through elicitation)',
    inputSchema: z.object({ service: z.string().describe(`Service name: ${SERVICE_NAMES.join(', ')}`) }),
    annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
  };
}

export function unknownServiceResult(service: string): CallToolResult {
  return textResult(`${RESTART_SERVICE_TOOL}: unknown service "${service}" (known: ${SERVICE_NAMES.join(', ')})`, true);
}

/** The outcome of an answered approval: a refusal is a normal result, not an error. */
export function restartOutcomeResult(service: string, decision: RestartDecision): CallToolResult {
  if (!decision.approved) return textResult(`NOT RESTARTED ${service}: ${decision.reason}`);
  return textResult(`RESTARTED ${service} under ${decision.ticket}`);
}
