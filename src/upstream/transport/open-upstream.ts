/** @module Opens the transport for an upstream spec: our Streamable HTTP client (with its OAuth authorizer), SDK-backed stdio (its process reported to a watcher) and legacy SSE. */

import { SSEClientTransport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import type { UpstreamSpec } from '../../config/types.js';
import { redactUrl } from '../../protocol/redact-url.js';
import type { AuthLogger } from './oauth/oauth-authorizer.js';
import { upstreamAuthorizer } from './oauth/upstream-authorizer.js';
import { perRequestSignalFetch } from './sdk/per-request-fetch.js';
import type { SpawnWatcher } from './processes/process-ledger.js';
import { type AdapterLifecycle, SdkTransportAdapter } from './sdk/sdk-adapter.js';
import { StreamableHttpClientTransport } from './streamable-http/client-transport.js';
import type { Transport, TransportPurpose } from './transport.js';

export interface OpenOptions {
  /** Where a stdio upstream's stderr goes: inherited (default) or dropped. */
  stderr?: 'inherit' | 'ignore';
  /** Where an HTTP upstream's OAuth authorizer logs what it does. */
  logger?: AuthLogger;
  /** What the session is for: `probe` sessions (startup, `check`) open no standalone GET stream. */
  purpose?: TransportPurpose;
  /** Told of each stdio upstream process as it starts and ends (so that a gateway killed with SIGKILL leaves a record). */
  processes?: SpawnWatcher;
}

/** Reports the process of `stdio` to `watcher` once it runs, and again when it has ended. */
function watched(stdio: StdioClientTransport, name: string, watcher: SpawnWatcher | undefined): AdapterLifecycle {
  if (!watcher) return {};
  let pid: number | undefined;
  return {
    started: () => {
      pid = stdio.pid ?? undefined;
      if (pid !== undefined) watcher.spawned(pid, name);
    },
    closed: () => {
      if (pid !== undefined) watcher.ended(pid);
      pid = undefined;
    },
  };
}

export function openUpstreamTransport(spec: UpstreamSpec, options: OpenOptions = {}): Transport {
  switch (spec.kind) {
    case 'stdio': {
      const stdio = new StdioClientTransport({
        command: spec.command,
        args: spec.args,
        env: { ...getDefaultEnvironment(), ...spec.env },
        ...(spec.cwd ? { cwd: spec.cwd } : {}),
        stderr: options.stderr ?? 'inherit',
      });
      return new SdkTransportAdapter(stdio, `upstream '${spec.name}' (${spec.command})`, watched(stdio, spec.name, options.processes));
    }
    case 'streamable-http': {
      const label = `upstream '${spec.name}' (${redactUrl(spec.url)})`;
      return new StreamableHttpClientTransport(new URL(spec.url), {
        headers: spec.headers,
        label,
        authorizer: upstreamAuthorizer(spec, label, options.logger),
        standaloneStream: options.purpose !== 'probe',
      });
    }
    case 'sse':
      return new SdkTransportAdapter(
        new SSEClientTransport(new URL(spec.url), { requestInit: { headers: spec.headers }, fetch: perRequestSignalFetch() }),
        `upstream '${spec.name}' (${redactUrl(spec.url)})`,
      );
    default:
      return assertNever(spec);
  }
}

function assertNever(value: never): never {
  throw new Error(`unknown upstream kind: ${JSON.stringify(value)}`);
}
