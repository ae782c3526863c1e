/**
 * @module e2e/harness/transcript: cuts one tools/call exchange (the call, the server's questions, the host's answers,
 * the final result) out of a recorded wire, and masks the ids the peers chose so it can be compared with a golden file.
 */
import type { WireEntry } from './raw-host.js';
import type { WireMessage } from './sse-reader.js';

export interface Exchange {
  /** The exchange, in wire order, ids unmasked. */
  readonly steps: readonly WireEntry[];
  readonly callId: WireMessage['id'];
  /** Ids of the server-to-client requests the gateway sent during the call. */
  readonly questionIds: readonly WireMessage['id'][];
}

/** The first tools/call of `tool` in `wire`, with the questions the gateway asked during it and the answers. */
export function extractExchange(wire: readonly WireEntry[], tool: string): Exchange {
  const start = wire.findIndex(
    ({ direction, message }) => direction === 'host->gateway' && message.method === 'tools/call' && message.params?.name === tool,
  );
  if (start === -1) throw new Error(`no tools/call of ${tool} in the wire: ${JSON.stringify(wire)}`);
  const call = wire[start] as WireEntry;
  const callId = call.message.id;
  const questionIds: WireMessage['id'][] = [];
  const steps: WireEntry[] = [call];
  for (const entry of wire.slice(start + 1)) {
    const { direction, message } = entry;
    const isRequest = message.method !== undefined && message.id !== undefined;
    const isResponse = message.method === undefined && message.id !== undefined;
    if (direction === 'gateway->host' && isRequest) {
      questionIds.push(message.id);
      steps.push(entry);
    } else if (direction === 'host->gateway' && isResponse && questionIds.includes(message.id)) {
      steps.push(entry);
    } else if (direction === 'gateway->host' && isResponse && message.id === callId) {
      steps.push(entry);
      return { steps, callId, questionIds };
    }
  }
  throw new Error(`the ${tool} call (id ${JSON.stringify(callId)}) never got its result: ${JSON.stringify(steps)}`);
}

/** Replaces, anywhere in `value`, strings equal to a key of `masks` with their mask (numbers are left alone). */
function maskValue(value: unknown, masks: ReadonlyMap<unknown, string>): unknown {
  if (typeof value === 'string' && masks.has(value)) return masks.get(value);
  if (Array.isArray(value)) return value.map((item) => maskValue(item, masks));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskValue(item, masks)]));
  }
  return value;
}

/**
 * The exchange with ids masked: the call's id becomes `<call-id>`, question ids `<question-id>` (numbered when
 * there are several), and any `sessionIds` string `<session-id>`; so is a `params.requestId` naming one of them
 * (a notifications/cancelled). Other numbers are never touched, so content stays exact.
 */
export function maskExchange(exchange: Exchange, sessionIds: readonly string[] = []): WireEntry[] {
  const masks = new Map<unknown, string>([[exchange.callId, '<call-id>']]);
  exchange.questionIds.forEach((id, index) => masks.set(id, exchange.questionIds.length === 1 ? '<question-id>' : `<question-id-${index + 1}>`));
  for (const sessionId of sessionIds) masks.set(sessionId, '<session-id>');
  return exchange.steps.map(({ direction, message }) => {
    const masked = maskValue(message, masks) as WireMessage;
    if ('id' in message && masks.has(message.id)) masked.id = masks.get(message.id);
    const requestId = message.params?.requestId;
    if (masked.params && masks.has(requestId)) masked.params = { ...masked.params, requestId: masks.get(requestId) };
    return { direction, message: masked };
  });
}
