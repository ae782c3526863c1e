/**
 * @module One round of a 2026-07-28 upstream's embedded input requests, put as questions: each becomes a
 * request under an id of the gateway's own and takes the path of an upstream's mid-call question (desk,
 * host stream or operator); its answer comes back locally, and the round ends once every key is answered.
 */

import type { InputRequest, InputRequestMethod } from '../../protocol/input-required.js';
import type { JsonObject, JsonRpcErrorObject, JsonRpcRequest } from '../../protocol/jsonrpc.js';
import type { RoundOutcome } from './input-loop.js';
import type { UpstreamSession } from '../session.js';

export interface RoundPorts {
  /** The upstream session whose call asked (answers are routed back through it, never over the wire). */
  session: UpstreamSession;
  /** Hands one question to the path every upstream question takes (the host session's deliverQuestion). */
  deliver(request: JsonRpcRequest): void;
}

export interface AskedRound {
  /** Every key's answer, or why the round cannot go back upstream (the first key answered with an error). */
  outcome: Promise<RoundOutcome>;
  /** The round was given up (the call was cancelled): answers still to come are dropped. */
  abandon(): void;
}

const LABEL: Record<InputRequestMethod, string> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling request',
  'roots/list': 'roots request',
};

/**
 * Asks every input request of a round at once. An elicitation answered `decline` or `cancel` is a
 * valid answer and goes upstream as given; an error (the host's, or the gateway's for a question nobody
 * could take) has no 2026-07-28 form, so it fails the round, once the round's other questions are settled.
 */
export function askRound(requests: Record<string, InputRequest>, ports: RoundPorts): AskedRound {
  const entries = Object.entries(requests).map(([key, input]) => ({ key, input, id: ports.session.newLocalQuestionId() }));
  const answers: Record<string, JsonObject> = {};
  const failures: { key: string; method: InputRequestMethod; error: JsonRpcErrorObject }[] = [];
  const waiting = new Set(entries.map((entry) => entry.id));
  const outcome = new Promise<RoundOutcome>((resolve) => {
    const settle = () => {
      if (waiting.size > 0) return;
      // The first failed key in the order the upstream listed them, so the reason does not depend on who answered first.
      const failure = entries.map((entry) => failures.find((f) => f.key === entry.key)).find((f) => f !== undefined);
      if (failure) resolve({ ok: false, reason: `its ${LABEL[failure.method]} '${failure.key}' was answered with an error: ${failure.error.message} (${failure.error.code})` });
      else resolve({ ok: true, answers });
    };
    for (const { key, input, id } of entries) {
      ports.session.answerLocally(id, (answer) => {
        waiting.delete(id);
        if ('result' in answer) answers[key] = answer.result;
        else failures.push({ key, method: input.method, error: answer.error });
        settle();
      });
    }
  });
  for (const { input, id } of entries) {
    if (!waiting.has(id)) continue;
    ports.deliver(asRequest(id, input));
  }
  return {
    outcome,
    abandon: () => {
      for (const id of waiting) ports.session.forgetLocal(id);
      waiting.clear();
    },
  };
}

/**
 * The embedded request as a JSON-RPC request of ours. A URL-mode elicitation gets the `elicitationId` a
 * 2025-11-25 host requires (2026-07-28 dropped it): the question's own id.
 */
function asRequest(id: string, input: InputRequest): JsonRpcRequest {
  if (input.params === undefined) return { jsonrpc: '2.0', id, method: input.method };
  const params: JsonObject = { ...input.params };
  if (input.method === 'elicitation/create' && params.mode === 'url' && typeof params.elicitationId !== 'string') params.elicitationId = id;
  return { jsonrpc: '2.0', id, method: input.method, params };
}
