/**
 * @module The retry loop of pair 3 of the era bridge: a legacy host's tools/call, prompts/get or
 * resources/read to a 2026-07-28 upstream that answers `input_required` is carried through by the
 * gateway itself: ask every input request of a round, retry with the answers, until the result is complete.
 */

import type { InputRequest } from '../../protocol/input-required.js';
import { parseInputRequiredResult } from '../../protocol/input-required.js';
import { retryParams } from '../../protocol/input-retry.js';
import type { JsonObject } from '../../protocol/jsonrpc.js';
import { GatewayError } from '../../protocol/gateway-errors.js';

export interface InputLoopLimits {
  /** How many rounds one call may take (an `input_required` beyond them fails the call). */
  maxRounds: number;
  /** Milliseconds the upstream may spend on the call across all its legs; time spent asking is not counted. */
  deadlineMs: number;
}

/** The answers of one round, by input request key, or why the round cannot go back upstream. */
export type RoundOutcome = { ok: true; answers: Record<string, JsonObject> } | { ok: false; reason: string };

export interface InputLoopIo {
  /** Asks every input request of one round together; resolves once each is answered, or with the first failure. */
  ask(requests: Record<string, InputRequest>): Promise<RoundOutcome>;
  /** Sends the retry upstream (a request of its own: a new JSON-RPC id), allowing it `timeoutMs`. */
  retry(params: JsonObject, timeoutMs: number): Promise<JsonObject>;
  /** Aborted when the host cancelled the call or its session closed. */
  signal: AbortSignal;
  now(): number;
}

export interface InputLoopStart {
  method: string;
  /** The params of the first request as the upstream got them (its names, no envelope, no progress token). */
  params: JsonObject;
  /** The upstream's answer to the first request. */
  first: JsonObject;
  /** Milliseconds the first request took (they count against the deadline). */
  spentMs: number;
  limits: InputLoopLimits;
}

export type InputLoopOutcome = { ok: true; result: JsonObject; rounds: number } | { ok: false; reason: string };

/**
 * Runs rounds until the upstream's result is complete. Each retry carries the original params, the
 * answers keyed as asked and the `requestState` exactly as given (none when none was given). Fails,
 * with a reason for the host, on a malformed `input_required`, more than `maxRounds` rounds, the
 * deadline, or an answer that has no 2026-07-28 form (an error). Throws what a retry throws (the
 * upstream's own error is the host's answer) and GW_ERR_REQUEST_CANCELLED when `signal` aborts.
 */
export async function runInputLoop(start: InputLoopStart, io: InputLoopIo): Promise<InputLoopOutcome> {
  const { method, params, limits } = start;
  let result = start.first;
  let spent = start.spentMs;
  for (let round = 1; ; round += 1) {
    if (result.resultType !== 'input_required') return { ok: true, result, rounds: round - 1 };
    const parsed = parseInputRequiredResult(result, method);
    if (!parsed.ok) return { ok: false, reason: `its input_required result is invalid: ${parsed.reason}` };
    if (round > limits.maxRounds) return { ok: false, reason: `it asked for input more than ${limits.maxRounds} times (inputRequired.maxRounds)` };
    const requests = parsed.result.inputRequests ?? {};
    let inputResponses: Record<string, JsonObject> | undefined;
    if (Object.keys(requests).length > 0) {
      const answered = await untilAborted(io.ask(requests), io.signal);
      if (!answered.ok) return { ok: false, reason: answered.reason };
      inputResponses = answered.answers;
    }
    const remaining = limits.deadlineMs - spent;
    if (remaining <= 0) return { ok: false, reason: deadlineReason(limits.deadlineMs) };
    const state = parsed.result.requestState;
    const next = retryParams(params, { ...(inputResponses ? { inputResponses } : {}), ...(state === undefined ? {} : { requestState: state }) });
    const sentAt = io.now();
    try {
      result = await io.retry(next, remaining);
    } catch (error) {
      if (error instanceof GatewayError && error.code === 'GW_ERR_UPSTREAM_TIMEOUT') return { ok: false, reason: deadlineReason(limits.deadlineMs) };
      throw error;
    } finally {
      spent += io.now() - sentAt;
    }
  }
}

function deadlineReason(deadlineMs: number): string {
  return `it did not complete within inputRequired.deadline (${deadlineMs} ms; the clock stops while a question is open)`;
}

/** The round's outcome, unless the call is cancelled first (then GW_ERR_REQUEST_CANCELLED at once). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  const cancelled = () => new GatewayError('GW_ERR_REQUEST_CANCELLED', 'the call was cancelled while its questions were open');
  if (signal.aborted) return Promise.reject(cancelled());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) reject(cancelled());
        else resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
