/** @module incident-desk/tools/restart-service: `restart_service`, which asks the host for approval through `elicitation/create`. */
import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

import { findService, SERVICES } from '../data.js';
import type { ResolvedIncidentDeskOptions } from '../options.js';
import { hostFailureResult, textResult } from './host-failure.js';
import { readRestartDecision, restartApprovalParams } from './restart-approval.js';

const TOOL = 'restart_service';
const SERVICE_NAMES = SERVICES.map((service) => service.name);

export function registerRestartServiceTool(server: McpServer, options: ResolvedIncidentDeskOptions): void {
  server.registerTool(
    TOOL,
    {
      title: 'Restart a service',
      description: 'Restarts one service after a human approves it with a change ticket (asked through elicitation)',
      inputSchema: z.object({ service: z.string().describe(`Service name: ${SERVICE_NAMES.join(', ')}`) }),
      annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    async ({ service }, ctx) => {
      if (!findService(service)) {
        return textResult(`${TOOL}: unknown service "${service}" (known: ${SERVICE_NAMES.join(', ')})`, true);
      }
      // Sent through the lower-level ctx.mcpReq.send, not ctx.mcpReq.elicitInput: the helper checks the
      // host's elicitation capability first (this tool deliberately does not), validates the answer against
      // the schema (an accept without `confirm` must read as "not restarted", not as an error), never sends
      // `_meta: {}` and stamps `mode` even at 2025-06-18. send() relates the request to this tools/call, so
      // on HTTP it rides the call's own SSE stream, and puts the params on the wire exactly as built.
      const params = restartApprovalParams(service, server.server.getNegotiatedProtocolVersion());
      const answer = await ctx.mcpReq
        .send({ method: 'elicitation/create', params }, { timeout: options.requestTimeoutMs })
        .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
      if (answer instanceof Error) return hostFailureResult(TOOL, 'elicitation/create', answer, options.requestTimeoutMs);
      const decision = readRestartDecision(answer);
      if (!decision.approved) return textResult(`NOT RESTARTED ${service}: ${decision.reason}`);
      return textResult(`RESTARTED ${service} under ${decision.ticket}`);
    },
  );
}
