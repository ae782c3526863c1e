/**
 * @module incident-desk/stateless/restart-service: `restart_service` for 2026-07-28 requests: asks for approval
 * with an `input_required` result and restarts only on a retry that carries the answer and the desk's own state.
 */
import { inputRequired, inputResponse, type McpServer, type RequestStateCodec } from '@modelcontextprotocol/server';

import { findService } from '../data.js';
import { missingCapabilityResult, textResult } from '../tools/host-failure.js';
import { readRestartDecision, restartApprovalInputParams } from '../tools/restart-approval.js';
import { RESTART_SERVICE_TOOL, restartOutcomeResult, restartServiceConfig, unknownServiceResult } from '../tools/restart-service-tool.js';
import { canElicitForm, declaredCapabilities } from './client-capabilities.js';
import { type DeskState, readDeskState, stateMatches } from './request-state.js';

/** The key of the one input request; the retry's `inputResponses` answers under the same key. */
export const APPROVAL_INPUT_KEY = 'approval';

export function registerStatelessRestartServiceTool(server: McpServer, states: RequestStateCodec<DeskState>): void {
  server.registerTool(RESTART_SERVICE_TOOL, restartServiceConfig(), async ({ service }, ctx) => {
    if (!findService(service)) return unknownServiceResult(service);
    // Checked per request (there is no session): no question may be embedded that the host cannot answer.
    if (!canElicitForm(declaredCapabilities(ctx))) return missingCapabilityResult(RESTART_SERVICE_TOOL, 'elicitation/create', 'form elicitation');

    // By now the server's verify hook has refused any state that is forged, altered or expired; what is
    // left is a state this desk minted. It must also be about this very restart.
    const state = readDeskState(ctx.mcpReq.requestState());
    if (state && !stateMatches(state, RESTART_SERVICE_TOOL, service)) {
      return textResult(
        `${RESTART_SERVICE_TOOL}: the requestState was issued for ${state.tool} of "${state.subject}", not for restarting "${service}": nothing restarted`,
        true,
      );
    }
    const answer = inputResponse(ctx.mcpReq.inputResponses, APPROVAL_INPUT_KEY);
    // A first call, or a retry without our state or without the answer: (re)ask. An answer without the
    // state that asked for it is ignored, so only approvals of a question this desk put count.
    if (!state || answer.kind !== 'elicit') {
      return inputRequired({
        inputRequests: { [APPROVAL_INPUT_KEY]: { method: 'elicitation/create', params: restartApprovalInputParams(service) } },
        requestState: await states.mint({ tool: RESTART_SERVICE_TOOL, subject: service }),
      });
    }
    return restartOutcomeResult(service, readRestartDecision(answer));
  });
}
