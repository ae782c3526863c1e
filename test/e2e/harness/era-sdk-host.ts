/**
 * @module e2e/harness/era-sdk-host: the official SDK v2 client as the host of an era pair, over Streamable HTTP or the
 * stdio of `switchboard stdio`: legacy (the SDK's default, a plain 2025-11-25 initialize) or negotiating 2026-07-28
 * (`versionNegotiation: 'auto'`, so the era is the gateway's answer to `server/discover`, asserted rather than assumed).
 * Handlers approve or decline the desk's approval and answer its sampling request; what they were asked is kept, and
 * `assertQuestionPath` checks on the wire how the question travelled in the host's era.
 */
import assert from 'node:assert/strict';

import type { CallToolResult, ClientCapabilities, CreateMessageRequest, ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';

import { APPROVE, type EraPair, type HostEra, MODEL_REPLY } from './era-pairs.js';
import { formatExchanges, type HttpExchange, MODERN_REVISION } from './modern-host.js';
import { LATEST_LEGACY_REVISION } from './raw-host.js';
import { connectSdkHttp, connectSdkStdio, type HostHandlers, type SdkHost, type SdkHostOptions } from './sdk-host.js';
import type { WireMessage } from './sse-reader.js';

export type TestContext = { after(fn: () => Promise<void>): void };

/** The same capabilities for both eras: the SDK sends them in initialize (legacy) or in every request's envelope (modern). */
export const PAIR_HOST_CAPABILITIES: ClientCapabilities = { elicitation: { form: {} }, sampling: {} };
export const CALL_TIMEOUT_MS = 20_000;

export interface PairHost {
  readonly era: HostEra;
  readonly sdk: SdkHost;
  /** What the handlers were asked. */
  readonly elicitations: ElicitRequest['params'][];
  readonly samplings: CreateMessageRequest['params'][];
  /** The host's wire (and HTTP exchanges, and the server's output), for assertion messages. */
  transcript(): string;
}

export interface PairHostOptions {
  /** How the elicitation handler answers (default: approve with the ticket). */
  readonly elicit?: ElicitResult;
  /** The server name the client must see (default: switchboard). */
  readonly serverName?: string;
  /** The server's own output, for failure messages. */
  readonly logs?: () => string;
}

function handlersFor(options: PairHostOptions, elicitations: ElicitRequest['params'][], samplings: CreateMessageRequest['params'][]): HostHandlers {
  return {
    elicit: (request) => {
      elicitations.push(request.params);
      return options.elicit ?? APPROVE;
    },
    sample: (request) => {
      samplings.push(request.params);
      return MODEL_REPLY;
    },
  };
}

function sdkOptions(era: HostEra, http?: HttpExchange[]): SdkHostOptions {
  return { ...(era === 'modern' && { versionNegotiation: { mode: 'auto' } }), ...(http && { recordHttp: http }) };
}

function wireText(sdk: SdkHost): string {
  return sdk.wire.map((entry) => `${entry.direction}: ${JSON.stringify(entry.message)}`).join('\n');
}

async function finish(t: TestContext, era: HostEra, sdk: SdkHost, options: PairHostOptions, parts: Omit<PairHost, 'era' | 'sdk' | 'transcript'>, extra: () => string): Promise<PairHost> {
  t.after(() => sdk.close());
  const host: PairHost = { era, sdk, ...parts, transcript: () => `--- wire ---\n${wireText(sdk)}\n${extra()}` };
  const expected = era === 'modern' ? MODERN_REVISION : LATEST_LEGACY_REVISION;
  assert.equal(sdk.client.getNegotiatedProtocolVersion(), expected, `a ${era} SDK host negotiated the wrong revision\n${host.transcript()}`);
  assert.equal(sdk.client.getServerVersion()?.name, options.serverName ?? 'switchboard', host.transcript());
  return host;
}

/** The SDK client over Streamable HTTP at `url`, every HTTP exchange recorded. */
export async function connectPairHostHttp(t: TestContext, url: string, era: HostEra, options: PairHostOptions = {}): Promise<PairHost> {
  const elicitations: ElicitRequest['params'][] = [];
  const samplings: CreateMessageRequest['params'][] = [];
  const http: HttpExchange[] = [];
  const extra = (): string => `--- HTTP ---\n${formatExchanges(http)}\n--- server ---\n${options.logs?.() ?? ''}`;
  let sdk: SdkHost;
  try {
    sdk = await connectSdkHttp(url, PAIR_HOST_CAPABILITIES, handlersFor(options, elicitations, samplings), sdkOptions(era, http));
  } catch (error) {
    throw new Error(`a ${era} SDK host could not connect: ${String(error)}\n${extra()}`);
  }
  return finish(t, era, sdk, options, { elicitations, samplings }, extra);
}

/** The SDK client spawning `switchboard stdio --config FILE` (a modern one probes on that same process). */
export async function connectPairHostStdio(t: TestContext, configPath: string, era: HostEra, options: PairHostOptions = {}): Promise<PairHost> {
  const elicitations: ElicitRequest['params'][] = [];
  const samplings: CreateMessageRequest['params'][] = [];
  const sdk = await connectSdkStdio(configPath, PAIR_HOST_CAPABILITIES, handlersFor(options, elicitations, samplings), sdkOptions(era));
  return finish(t, era, sdk, options, { elicitations, samplings }, () => `--- gateway stderr ---\n${sdk.stderr()}`);
}

export async function callTool(host: PairHost, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  try {
    return (await host.sdk.client.callTool({ name, arguments: args }, { timeout: CALL_TIMEOUT_MS })) as CallToolResult;
  } catch (error) {
    throw new Error(`tools/call ${name} failed: ${String(error)}\n${host.transcript()}`);
  }
}

export function textOf(result: CallToolResult): string {
  return result.content
    .filter((block) => block.type === 'text')
    .map((block) => (block as { text: string }).text)
    .join('\n');
}

function sent(host: PairHost, method: string): WireMessage[] {
  return host.sdk.wire.filter((entry) => entry.direction === 'host->gateway' && entry.message.method === method).map((entry) => entry.message);
}

function received(host: PairHost): WireMessage[] {
  return host.sdk.wire.filter((entry) => entry.direction === 'gateway->host').map((entry) => entry.message);
}

/**
 * How the question reached the host, by its era. Legacy: one tools/call, and the gateway sent one `method` request to the
 * host (on the call's stream). Modern: no request from the gateway at all; the first tools/call was answered
 * `input_required` with one key asking `method` and a string `requestState`; the SDK retried once under a new id with that
 * key in `inputResponses` and the state echoed; the retry's answer says `resultType: "complete"`.
 */
export function assertQuestionPath(host: PairHost, pair: Pick<EraPair, 'host'>, method: string): void {
  const calls = sent(host, 'tools/call');
  const requests = received(host).filter((message) => message.method !== undefined && message.id !== undefined);
  const why = host.transcript();
  if (pair.host === 'legacy') {
    assert.equal(calls.length, 1, `one tools/call\n${why}`);
    assert.deepEqual(
      requests.map((message) => message.method),
      [method],
      `the gateway asked the legacy host with one ${method} request\n${why}`,
    );
    assert.doesNotMatch(JSON.stringify(received(host)), /inputRequests|requestState|resultType/, `no 2026-only fields reach a legacy host\n${why}`);
    return;
  }
  assert.deepEqual(requests, [], `no server-to-client request to a modern host\n${why}`);
  assert.equal(calls.length, 2, `the first call and one retry\n${why}`);
  const [first, retry] = calls as [WireMessage, WireMessage];
  const interim = received(host).find((message) => message.id === first.id && message.result !== undefined);
  assert.equal(interim?.result?.resultType, 'input_required', `the first call ends input_required\n${why}`);
  const inputRequests = interim?.result?.inputRequests as Record<string, { method: string }> | undefined;
  const keys = Object.keys(inputRequests ?? {});
  assert.equal(keys.length, 1, `one input request\n${why}`);
  assert.equal(inputRequests?.[keys[0] as string]?.method, method, why);
  assert.equal(typeof interim?.result?.requestState, 'string', `requestState is a string\n${why}`);
  assert.notEqual(retry.id, first.id, 'the retry has a new id');
  assert.deepEqual(Object.keys((retry.params?.inputResponses ?? {}) as object), keys, `the retry answers under the gateway's key\n${why}`);
  assert.equal(retry.params?.requestState, interim?.result?.requestState, 'requestState echoed byte for byte');
  const final = received(host).find((message) => message.id === retry.id && message.result !== undefined);
  assert.equal(final?.result?.resultType, 'complete', `the retry completes\n${why}`);
}
