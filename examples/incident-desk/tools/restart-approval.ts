/** @module incident-desk/tools/restart-approval: the approval question restart_service asks, and how its answer is read. */
import type { ElicitResult } from '@modelcontextprotocol/server';

/** The first revision whose elicitation carries `mode` (form or url). */
const FIRST_REVISION_WITH_MODE = '2025-11-25';

/**
 * The exact `elicitation/create` params for restarting `service`. At 2025-11-25 and later they
 * carry `mode: "form"`; older hosts (2025-06-18) never saw that field, so it is left out for them.
 */
export function restartApprovalParams(service: string, protocolVersion: string | undefined): Record<string, unknown> {
  const withMode = protocolVersion === undefined || protocolVersion >= FIRST_REVISION_WITH_MODE;
  return {
    message: `Restart ${service}? This drops in-flight requests.`,
    requestedSchema: {
      type: 'object',
      properties: {
        confirm: { type: 'boolean', description: 'Tick to approve the restart' },
        ticket: { type: 'string', description: 'Change ticket number, e.g. CHG-2291' },
      },
      required: ['confirm', 'ticket'],
    },
    _meta: {},
    ...(withMode ? { mode: 'form' } : {}),
  };
}

export type RestartDecision = { readonly approved: true; readonly ticket: string } | { readonly approved: false; readonly reason: string };

/** Reads the host's answer: only an accept with `confirm: true` and a non-empty ticket approves. */
export function readRestartDecision(answer: ElicitResult): RestartDecision {
  switch (answer.action) {
    case 'decline':
      return { approved: false, reason: 'approval declined' };
    case 'cancel':
      return { approved: false, reason: 'approval cancelled' };
    case 'accept': {
      const confirm = answer.content?.confirm;
      const ticket = answer.content?.ticket;
      if (confirm !== true) return { approved: false, reason: 'restart not confirmed' };
      if (typeof ticket !== 'string' || ticket.trim() === '') return { approved: false, reason: 'no change ticket given' };
      return { approved: true, ticket: ticket.trim() };
    }
    default:
      return { approved: false, reason: `unexpected answer "${String(answer.action)}"` };
  }
}
