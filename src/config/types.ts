/** @module The normalized configuration (the only config shape the gateway core sees). */

import type { AnswererRule } from '../access/answerers.js';
import type { PolicySettings } from '../access/policy.js';
import type { CompositeDefinition } from '../composite/definition.js';
import type { LogSettings } from './sections/log.js';
import type { TracingSection } from './sections/tracing.js';
import type { NOTIFY_EVENTS } from './sections/notify.js';

export type NamingStrategy = 'prefix-on-conflict' | 'prefix' | 'priority' | 'manual';
export type SharingMode = 'per-session' | 'shared';

/** Where a per-session upstream's lists come from before a host's own session opens (see UpstreamCommon.lists). */
export type ListsMode = 'shared' | 'per-session';

/** Which protocol era an upstream is spoken to in: detected (`auto`), or pinned. */
export type EraSetting = 'auto' | 'legacy' | 'modern';

export interface ToolFilter {
  /** When set, only these (original) tool names are exposed. */
  allow?: string[];
  /** These (original) tool names are never exposed. */
  deny: string[];
  /** Original name -> exposed name. Applied after allow/deny, before the naming strategy. */
  rename: Record<string, string>;
}

/** Who answers the questions upstreams ask back (see the question desk). */
export type QuestionRoute = 'host' | 'host-then-operator' | 'operator' | 'both';

export interface QuestionOverride {
  route?: QuestionRoute;
  timeoutMs?: number;
}

interface UpstreamCommon {
  /** The key under `upstreams:` in the config. */
  name: string;
  sharing: SharingMode;
  /** Per-session mode: a host's lists before its own session opens come from a list session shared by key (`shared`), or from its own (`per-session`). */
  lists: ListsMode;
  tools: ToolFilter;
  /** Milliseconds a forwarded request may wait for the upstream (paused while a host answers a question). */
  requestTimeoutMs: number;
  /** Milliseconds allowed for connect + initialize. */
  connectTimeoutMs: number;
  /** Question routing for this upstream and, by the upstream's own tool name, its tools. */
  questions?: QuestionOverride & { tools?: Record<string, QuestionOverride> };
  /** `auto`: probe with server/discover, fall back to initialize; or pinned to one era (an `sse` upstream is always legacy). */
  era: EraSetting;
  /** The loop the gateway runs for a legacy host when this (2026-07-28) upstream answers input_required. */
  inputRequired: { maxRounds: number; deadlineMs: number };
}

export interface StdioUpstreamSpec extends UpstreamCommon {
  kind: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Absolute path (resolved against the config file's folder). */
  cwd?: string;
}

/** OAuth 2.1 with the upstream's authorization server (MCP authorization spec); see docs/design/004-upstream-oauth.md. */
export interface OAuthSettings {
  type: 'oauth';
  /** Pre-registered client; without it the client metadata URL or dynamic registration is used. */
  clientId?: string;
  clientSecret?: string;
  /** Client ID Metadata Document URL, used as the client id when the authorization server supports it. */
  clientMetadataUrl?: string;
  /** Asked for when the upstream's challenge names no scope (before the resource's `scopes_supported`). */
  scope?: string;
  /** The redirect URI sent to (and registered with) the authorization server. */
  redirectUrl: string;
}

export interface StreamableHttpUpstreamSpec extends UpstreamCommon {
  kind: 'streamable-http';
  url: string;
  headers: Record<string, string>;
  /** Absent: an upstream that asks for authorization fails to connect (no OAuth without being told to). */
  auth?: OAuthSettings;
}

export interface SseUpstreamSpec extends UpstreamCommon {
  kind: 'sse';
  url: string;
  headers: Record<string, string>;
}

export type UpstreamSpec = StdioUpstreamSpec | StreamableHttpUpstreamSpec | SseUpstreamSpec;

export interface ListenAddress {
  host: string;
  port: number;
}

export interface HttpSettings {
  /** The base URL hosts reach the gateway at (no trailing slash), when it differs from the listen address. */
  publicUrl?: string;
  /** Extra Host header values accepted besides loopback names (DNS-rebinding protection). */
  allowedHosts: string[];
  /** Extra Origin values accepted besides loopback origins. */
  allowedOrigins: string[];
  /** Maximum request body in bytes. */
  maxBodyBytes: number;
  /** Idle host sessions are closed after this many milliseconds (0 = never); busy ones are not idle. */
  sessionIdleTimeoutMs: number;
  /** Deepest nesting of arrays and objects accepted in any JSON read from a host or an operator. */
  maxJsonDepth: number;
  /** Most host sessions at once (sessionful HTTP, legacy /sse and 2026-07-28 stand-ins together). */
  maxSessions: number;
  /** Most host sessions of one principal at once. */
  maxSessionsPerPrincipal: number;
  /** Most 2026-07-28 stand-in sessions at once. */
  maxStandIns: number;
  /** Milliseconds a client may take to send the request line and headers. */
  headersTimeoutMs: number;
  /** Milliseconds a client may take to send a whole request. */
  requestTimeoutMs: number;
  /** Most TCP connections open at once. */
  maxConnections: number;
}

/** Who may answer a kind of question the host cannot or should not take itself. */
export type QuestionAnswerer = 'host' | 'operator';

/** How hosts authenticate (`auth.hosts`); the audience, when absent, is the canonical URL of /mcp, known once the gateway listens. */
export type HostAuthSettings =
  | { kind: 'none' }
  | {
      kind: 'oauth';
      issuer: string;
      audience?: string;
      jwksUri?: string;
      algorithms: string[];
      introspection?: { endpoint?: string; clientId: string; clientSecret: string };
      scopes: string[];
      groupsClaim: string;
      clockToleranceMs: number;
    }
  | { kind: 'apiKeys'; keys: ApiKeyEntry[] };

/** One configured API key: the SHA-256 of the key (hex) and the principal it names. */
export interface ApiKeyEntry {
  sha256: string;
  subject: string;
  name?: string;
  groups: string[];
  scopes: string[];
}

/** How operators sign in (`auth.operators`). */
export interface OperatorAuthSettings {
  oidc?: {
    issuer: string;
    clientId: string;
    clientSecret?: string;
    /** What an operator's bearer token for the REST API must name as its audience. */
    audience: string;
    scopes: string[];
    groupsClaim: string;
    sessionTtlMs: number;
    cookieSecret?: string;
  };
  /** Whether the shared operator token is accepted, and from where: everywhere, loopback clients only (with oidc), or nowhere. */
  token: 'everywhere' | 'loopback' | 'off';
}

export interface NormalizedConfig {
  /** Absolute path of the file it was read from, if any. */
  source?: string;
  listen: ListenAddress;
  /** In config order (the order matters for `priority` naming). */
  upstreams: UpstreamSpec[];
  naming: { strategy: NamingStrategy; separator: string };
  http: HttpSettings;
  /** Page size for list results the gateway paginates itself. */
  pageSize: number;
  /** Backoff for an upstream that failed to start: first delay and cap, in milliseconds. */
  retry: { initialDelayMs: number; maxDelayMs: number };
  /** Gateway-wide question routing (upstreams and tools may override it). */
  questions: {
    /** Per tool, by the name hosts see: how many different operators must accept its questions (four-eyes). */
    approvers: Record<string, number>;
    route: QuestionRoute;
    timeoutMs: number;
    /** `operator`: sampling is promised upstream even for hosts that cannot sample, and an operator replies. */
    sampling: QuestionAnswerer;
    /** `operator`: consent questions always go to an operator, even when the host could take them. */
    consent: QuestionAnswerer;
  };
  /** Operator surfaces (console, REST API, /metrics); the token may also come from SWITCHBOARD_CONSOLE_TOKEN. */
  console: { enabled: boolean; token?: string };
  auth: { hosts: HostAuthSettings; operators: OperatorAuthSettings };
  /** Access between host principals and upstreams (rules), and between operators and questions (answerers). */
  policy: PolicySettings & { answerers: AnswererRule[] };
  /** Where questions and runs are kept: a SQLite file (absolute path), a PostgreSQL server (its URL holds the password: show it only through the store's `shownUrl`), or memory. */
  store: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; poolSize: number; schema: string } | { kind: 'memory' };
  /**
   * Several instances on one PostgreSQL store: this one's id (absent: `serve` makes one), the link the others reach it
   * by (its base URL without a trailing slash, and the secret that signs forwarded requests), when a silent one is dead.
   */
  cluster: { id?: string; link?: { advertise: string; secret: string }; deadAfterMs: number; drainTimeoutMs: number };
  /** Keys (as written) that sign requestState handles, first one signing; absent: generated by `serve`. */
  requestState: { keys?: string[] };
  /** How the log on stderr is written. */
  log: LogSettings;
  /** OpenTelemetry traces as the file says (each key absent: the OTEL_* variables decide, see observability/tracing-settings). */
  tracing: TracingSection;
  /** Composite tools, in file order, checked (graph, templates, upstreams); none when the file has no `composites:`. */
  composites: CompositeDefinition[];
  /** Webhook targets paged when a question waits for an operator (none by default), each with a unique name. */
  notify: NotifyTarget[];
}

/** An event a webhook target can be sent. */
export type NotifyEventType = (typeof NOTIFY_EVENTS)[number];

/** One webhook target of `notify`, its `${VAR}`s expanded. Its `url`, `headers` and `secret` are never logged or shown. */
export interface NotifyTarget {
  /** Unique among the targets: what the audit, the console, logs and metrics call it. */
  name: string;
  url: string;
  format: 'json' | 'slack';
  headers: Record<string, string>;
  secret?: string;
  events: NotifyEventType[];
  /** Globs of upstream names; absent: every upstream. */
  upstreams?: string[];
  /** Globs of tool names as hosts see them; absent: every question (present: a question no call explains matches none). */
  tools?: string[];
  /** One attempt's limit. */
  timeoutMs: number;
  /** Most attempts of one delivery. */
  attempts: number;
}
