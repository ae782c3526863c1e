/** @module incident-desk/tools/restart-service: `restart_service` for legacy sessions, which asks the host for approval through `elicitation/create`. */
import type { McpServer } from '@modelcontextprotocol/server';

import { findService } from '../data.js';
import type { ResolvedIncidentDeskOptions } from '../options.js';
import { hostFailureResult } from './host-failure.js';
import { readRestartDecision, restartApprovalParams } from './restart-approval.js';
import { RESTART_SERVICE_TOOL, restartOutcomeResult, restartServiceConfig, unknownServiceResult } from './restart-service-tool.js';

export function registerRestartServiceTool(server: McpServer, options: ResolvedIncidentDeskOptions): void {
  server.registerTool(RESTART_SERVICE_TOOL, restartServiceConfig(), async ({ service }, ctx) => {
    if (!findService(service)) return unknownServiceResult(service);
    // Sent through the lower-level ctx.mcpReq.send, not ctx.mcpReq.elicitInput: the helper checks the
    // host's elicitation capability first (this tool deliberately does not), validates the answer against
    // the schema (an accept without `confirm` must read as "not restarted", not as an error), never sends
    // `_meta: {}` and stamps `mode` even at 2025-06-18. send() relates the request to this tools/call, so
    // on HTTP it rides the call's own SSE stream, and puts the params on the wire exactly as built.
    const params = restartApprovalParams(service, server.server.getNegotiatedProtocolVersion());
    const answer = await ctx.mcpReq
      .send({ method: 'elicitation/create', params }, { timeout: options.requestTimeoutMs })
      .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    if (answer instanceof Error) return hostFailureResult(RESTART_SERVICE_TOOL, 'elicitation/create', answer, options.requestTimeoutMs);
    return restartOutcomeResult(service, readRestartDecision(answer));
  });
}
