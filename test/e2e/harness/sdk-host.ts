/**
 * @module e2e/harness/sdk-host: hosts built from the official SDK Client, over Streamable HTTP or over the stdio of
 * `switchboard stdio`, with optional elicitation and sampling handlers and a recorded wire.
 */
import { Client } from '@modelcontextprotocol/client';
import type {
  ClientCapabilities,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  VersionNegotiationOptions,
} from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { gatewayEnv } from './gateway.js';
import { type HttpExchange, recordingFetch } from './modern-host.js';
import { REPO_ROOT, SWITCHBOARD_BIN } from './paths.js';
import type { WireEntry } from './raw-host.js';
import { RecordingTransport } from './recording-transport.js';

export interface HostHandlers {
  readonly elicit?: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>;
  readonly sample?: (request: CreateMessageRequest) => CreateMessageResult | Promise<CreateMessageResult>;
}

export interface SdkHost {
  readonly client: Client;
  /** Messages on the host's side of the connection, in order. */
  readonly wire: WireEntry[];
  /** The HTTP session id (undefined over stdio). */
  readonly sessionId: string | undefined;
  /** Errors the client reported (e.g. a stdout line that is not JSON-RPC). */
  readonly errors: Error[];
  /** What the gateway wrote to stderr (stdio only). */
  stderr(): string;
  /** The gateway's process (stdio only). */
  readonly pid?: number;
  /** Every HTTP exchange (status, headers, body) when `recordHttp` was given (HTTP only). */
  readonly http?: HttpExchange[];
  close(): Promise<void>;
}

export const SDK_HOST_INFO = { name: 'sdk-e2e-host', version: '1.0.0' } as const;

export interface SdkHostOptions {
  /** The client's era negotiation (default: the SDK's, `legacy`: a plain 2025 initialize). */
  readonly versionNegotiation?: VersionNegotiationOptions;
  /** Record every HTTP exchange (status, headers, body) here, from the first one on, so even a failed connect shows them (HTTP only). */
  readonly recordHttp?: HttpExchange[];
}

function createClient(capabilities: ClientCapabilities, handlers: HostHandlers, errors: Error[], options: SdkHostOptions = {}): Client {
  const client = new Client(SDK_HOST_INFO, { capabilities, ...(options.versionNegotiation && { versionNegotiation: options.versionNegotiation }) });
  client.onerror = (error) => errors.push(error);
  if (handlers.elicit) client.setRequestHandler('elicitation/create', handlers.elicit);
  if (handlers.sample) client.setRequestHandler('sampling/createMessage', handlers.sample);
  return client;
}

/** An SDK Client connected to the gateway's Streamable HTTP endpoint. */
export async function connectSdkHttp(url: string, capabilities: ClientCapabilities, handlers: HostHandlers = {}, options: SdkHostOptions = {}): Promise<SdkHost> {
  const errors: Error[] = [];
  const client = createClient(capabilities, handlers, errors, options);
  const http = options.recordHttp;
  const transport = new RecordingTransport(new StreamableHTTPClientTransport(new URL(url), http ? { fetch: recordingFetch(http) } : undefined));
  await client.connect(transport);
  return {
    client,
    wire: transport.wire,
    sessionId: transport.sessionId,
    errors,
    ...(http && { http }),
    stderr: () => '',
    async close() {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

/** Bounded wait for a pid to disappear; true if it did. */
async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

/** Spawns `switchboard stdio --config <configPath>` behind an SDK Client over StdioClientTransport. */
export async function connectSdkStdio(configPath: string, capabilities: ClientCapabilities, handlers: HostHandlers = {}, options: SdkHostOptions = {}): Promise<SdkHost> {
  const errors: Error[] = [];
  const client = createClient(capabilities, handlers, errors, options);
  const stdio = new StdioClientTransport({
    command: process.execPath,
    args: [SWITCHBOARD_BIN, 'stdio', '--config', configPath],
    cwd: REPO_ROOT,
    env: { ...(process.env as Record<string, string>), ...gatewayEnv() },
    stderr: 'pipe',
  });
  let stderr = '';
  stdio.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const transport = new RecordingTransport(stdio);
  try {
    await client.connect(transport);
  } catch (error) {
    // A failed connect must not leave the gateway (and its upstreams) running.
    const spawned = stdio.pid;
    await client.close().catch(() => undefined);
    if (spawned !== null && !(await waitForExit(spawned, 5_000))) process.kill(spawned, 'SIGKILL');
    throw error;
  }
  const pid = stdio.pid;
  return {
    client,
    wire: transport.wire,
    sessionId: undefined,
    errors,
    stderr: () => stderr,
    ...(pid !== null && { pid }),
    async close() {
      await client.close();
      // The SDK closes stdin and escalates to signals itself; make sure the gateway (and so its upstreams) is gone.
      if (pid !== null && !(await waitForExit(pid, 5_000))) process.kill(pid, 'SIGKILL');
    },
  };
}
