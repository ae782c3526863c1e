/** @module The legacy host's port against the HostPort contract: questions as requests on the call's stream, over a recording channel. */

import { hostPortContract } from '../../ports/testing/host-port-contract.js';
import type { JsonObject, JsonRpcId, JsonRpcMessage, JsonRpcNotification } from '../../protocol/jsonrpc.js';
import { RequestPort } from './request-port.js';

const DECLARED = { protocolVersion: '2025-06-18', capabilities: { elicitation: {}, roots: {} } };

function legacyHost(reachable: boolean) {
  const sent: { message: JsonRpcMessage; related: JsonRpcId | undefined }[] = [];
  const port = new RequestPort(
    { id: 's-1', closed: false, profile: DECLARED },
    { send: (message, related) => sent.push({ message, related }), canReachOutsideCalls: () => reachable },
    { initialized: true },
  );
  let calls = 0;
  const notifications = (related: JsonRpcId | undefined) =>
    sent.filter((s) => s.related === related && 'method' in s.message && !('id' in s.message) && s.message.method !== 'notifications/cancelled').map((s) => s.message as JsonRpcNotification);
  return {
    port,
    declared: DECLARED,
    openCall: () => `call-${(calls += 1)}`,
    held: async (call: JsonRpcId) => {
      const held = new Map<string, { method: string; params?: JsonObject }>();
      for (const { message, related } of sent) {
        if (related !== call || !('method' in message)) continue;
        if ('id' in message && typeof message.id === 'string') held.set(message.id, message.params === undefined ? { method: message.method } : { method: message.method, params: message.params });
        else if (message.method === 'notifications/cancelled') held.delete(message.params?.requestId as string);
      }
      return held;
    },
    notifiedOn: (call: JsonRpcId) => notifications(call),
    notifiedOutside: () => notifications(undefined),
  };
}

hostPortContract('legacy host (a GET stream open)', () => legacyHost(true));
hostPortContract('legacy host (no stream outside its calls)', () => legacyHost(false));
