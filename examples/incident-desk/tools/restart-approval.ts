/** @module incident-desk/tools/restart-approval: the approval question restart_service asks, and how its answer is read. */
import type { ElicitRequestFormParams } from '@modelcontextprotocol/server';

/** The first revision whose elicitation carries `mode` (form or url). */
const FIRST_REVISION_WITH_MODE = '2025-11-25';

/** The question itself, the same in every revision: what is asked and the form to answer it with. */
function approvalQuestion(service: string) {
  return {
    message: `Restart ${service}? This drops in-flight requests.`,
    requestedSchema: {
      type: 'object' as const,
      properties: {
        confirm: { type: 'boolean' as const, description: 'Tick to approve the restart' },
        ticket: { type: 'string' as const, description: 'Change ticket number, e.g. CHG-2291' },
      },
      required: ['confirm', 'ticket'],
    },
  };
}

/**
 * The exact `elicitation/create` params for restarting `service`. At 2025-11-25 and later they
 * carry `mode: "form"`; older hosts (2025-06-18) never saw that field, so it is left out for them.
 */
export function restartApprovalParams(service: string, protocolVersion: string | undefined): Record<string, unknown> {
  const withMode = protocolVersion === undefined || protocolVersion >= FIRST_REVISION_WITH_MODE;
  return {
    ...approvalQuestion(service),
    _meta: {},
    ...(withMode ? { mode: 'form' } : {}),
  };
}

/**
 * The same question as an embedded `elicitation/create` of a 2026-07-28 `input_required` result: the
 * 2025-11-25 params without `_meta`, which embedded input requests do not carry (their params are bare).
 */
export function restartApprovalInputParams(service: string): ElicitRequestFormParams {
  return { ...approvalQuestion(service), mode: 'form' };
}

/** An elicitation answer as either front end receives it (the host's values are not trusted: they are checked here). */
export interface ApprovalAnswer {
  readonly action: string;
  readonly content?: Readonly<Record<string, unknown>>;
}

export type RestartDecision = { readonly approved: true; readonly ticket: string } | { readonly approved: false; readonly reason: string };

/** Reads the host's answer: only an accept with `confirm: true` and a non-empty ticket approves. */
export function readRestartDecision(answer: ApprovalAnswer): RestartDecision {
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
      return { approved: false, reason: `unexpected answer "${answer.action}"` };
  }
}
