/** @module e2e/harness/upstreams: config entries for the test upstreams, and spawners for the ones served over HTTP. */
import { type ChildHandle, spawnReady } from './child.js';
import { INCIDENT_DESK_BIN, LAB_UPSTREAM_MAIN, REPO_ROOT, SSE_UPSTREAM_MAIN, TSX_FLAGS } from './paths.js';

/** One entry under `upstreams:` in a gateway config, as written in YAML. */
export type UpstreamEntry = Record<string, unknown>;

/** The incident desk spawned by the gateway over stdio. */
export function incidentDeskStdio(extra: UpstreamEntry = {}): UpstreamEntry {
  return { command: process.execPath, args: [INCIDENT_DESK_BIN], cwd: REPO_ROOT, ...extra };
}

/** The incident desk in its 2026-07-28 mode (`--stateless`), spawned by the gateway over stdio. */
export function statelessDeskStdio(extra: UpstreamEntry = {}): UpstreamEntry {
  return { command: process.execPath, args: [INCIDENT_DESK_BIN, '--stateless'], cwd: REPO_ROOT, ...extra };
}

/** The lab upstream spawned by the gateway over stdio. */
export function labStdio(extra: UpstreamEntry = {}): UpstreamEntry {
  return { command: process.execPath, args: [...TSX_FLAGS, LAB_UPSTREAM_MAIN], cwd: REPO_ROOT, ...extra };
}

export function streamableHttpUpstream(url: string, extra: UpstreamEntry = {}): UpstreamEntry {
  return { url, ...extra };
}

export function sseUpstream(url: string, extra: UpstreamEntry = {}): UpstreamEntry {
  return { url, transport: 'sse', ...extra };
}

/** A running upstream server; `url` is its MCP endpoint. */
export interface HttpUpstream {
  readonly url: string;
  readonly process: ChildHandle;
  stop(): Promise<void>;
}

function asUpstream(process: ChildHandle): HttpUpstream {
  return { url: process.value, process, stop: () => process.stop() };
}

/** Spawns a fixture that prints `<label> listening on <url>` to stderr once it serves. */
async function startHttpFixture(label: string, args: string[], path: string): Promise<HttpUpstream> {
  return asUpstream(
    await spawnReady({
      label,
      command: process.execPath,
      args,
      cwd: REPO_ROOT,
      readyOn: 'stderr',
      ready: new RegExp(`^${label.split(' ')[0]} listening on (http://127\\.0\\.0\\.1:\\d+${path})$`),
    }),
  );
}

/** `incident-desk --http 127.0.0.1:0` (Streamable HTTP, one session per host). */
export function startIncidentDeskHttp(address = '127.0.0.1:0'): Promise<HttpUpstream> {
  return startHttpFixture('incident-desk --http', [INCIDENT_DESK_BIN, '--http', address], '/mcp');
}

/** `incident-desk --stateless --http 127.0.0.1:0` (2026-07-28 only, no sessions). */
export function startStatelessDeskHttp(address = '127.0.0.1:0'): Promise<HttpUpstream> {
  return startHttpFixture('incident-desk --stateless', [INCIDENT_DESK_BIN, '--stateless', '--http', address], '/mcp');
}

/** The lab upstream over sessionful Streamable HTTP; `unknownSession` ('STATUS MESSAGE') is how it refuses a session id it does not know. */
export function startLabHttp(address = '127.0.0.1:0', unknownSession?: string): Promise<HttpUpstream> {
  const refusal = unknownSession === undefined ? [] : ['--unknown-session', unknownSession];
  return startHttpFixture('lab-upstream --http', [...TSX_FLAGS, LAB_UPSTREAM_MAIN, '--http', address, ...refusal], '/mcp');
}

/** The legacy HTTP+SSE fixture (2024-11-05 transport); `url` is its `/sse` endpoint. */
export function startSseUpstream(): Promise<HttpUpstream> {
  return startHttpFixture('sse-upstream', [...TSX_FLAGS, SSE_UPSTREAM_MAIN, '--http', '127.0.0.1:0'], '/sse');
}
