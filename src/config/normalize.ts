/** @module From the validated config file to the normalized IR the gateway core consumes. */

import { dirname, resolve } from 'node:path';
import type { ParsedConfigFile } from './schema.js';
import type { NormalizedConfig, OAuthSettings, QuestionOverride, ToolFilter, UpstreamSpec } from './types.js';

type ParsedUpstream = ParsedConfigFile['upstreams'][string];

export interface NormalizeContext {
  /** Absolute path of the config file; relative `cwd`s are resolved against its folder. */
  source: string;
  /** Upstream names in file order (the parsed object may have reordered integer-like names). */
  upstreamOrder: readonly string[];
}

function normalizeTools(tools: ParsedUpstream['tools']): ToolFilter {
  return {
    ...(tools.allow === undefined ? {} : { allow: [...tools.allow] }),
    deny: [...tools.deny],
    rename: { ...tools.rename },
  };
}

function normalizeAuth(auth: NonNullable<ParsedUpstream['auth']>): OAuthSettings {
  return {
    type: auth.type,
    ...(auth.clientId === undefined ? {} : { clientId: auth.clientId }),
    ...(auth.clientSecret === undefined ? {} : { clientSecret: auth.clientSecret }),
    ...(auth.clientMetadataUrl === undefined ? {} : { clientMetadataUrl: auth.clientMetadataUrl }),
    ...(auth.scope === undefined ? {} : { scope: auth.scope }),
    redirectUrl: auth.redirectUrl,
  };
}

function normalizeOverride(override: { route?: QuestionOverride['route']; timeout?: number }): QuestionOverride {
  return {
    ...(override.route === undefined ? {} : { route: override.route }),
    ...(override.timeout === undefined ? {} : { timeoutMs: override.timeout }),
  };
}

function normalizeQuestions(questions: NonNullable<ParsedUpstream['questions']>): NonNullable<UpstreamSpec['questions']> {
  const tools = questions.tools === undefined ? undefined : Object.fromEntries(Object.entries(questions.tools).map(([tool, o]) => [tool, normalizeOverride(o)]));
  return { ...normalizeOverride(questions), ...(tools === undefined ? {} : { tools }) };
}

function normalizeUpstream(name: string, upstream: ParsedUpstream, configDir: string): UpstreamSpec {
  const common = {
    name,
    sharing: upstream.sharing,
    tools: normalizeTools(upstream.tools),
    requestTimeoutMs: upstream.timeout,
    connectTimeoutMs: upstream.connectTimeout,
    ...(upstream.questions === undefined ? {} : { questions: normalizeQuestions(upstream.questions) }),
    era: upstream.era,
    inputRequired: { maxRounds: upstream.inputRequired.maxRounds, deadlineMs: upstream.inputRequired.deadline ?? upstream.timeout },
  };
  if (upstream.command !== undefined) {
    return {
      kind: 'stdio',
      ...common,
      command: upstream.command,
      args: [...(upstream.args ?? [])],
      env: { ...upstream.env },
      ...(upstream.cwd === undefined ? {} : { cwd: resolve(configDir, upstream.cwd) }),
    };
  }
  // The schema guarantees an upstream without command has a url.
  const url = upstream.url ?? '';
  const headers = { ...upstream.headers };
  return upstream.transport === 'sse'
    ? { kind: 'sse', ...common, url, headers }
    : { kind: 'streamable-http', ...common, url, headers, ...(upstream.auth === undefined ? {} : { auth: normalizeAuth(upstream.auth) }) };
}

export function normalizeConfig(parsed: ParsedConfigFile, context: NormalizeContext): NormalizedConfig {
  const configDir = dirname(context.source);
  const names = context.upstreamOrder.filter((name) => Object.hasOwn(parsed.upstreams, name));
  for (const name of Object.keys(parsed.upstreams)) if (!names.includes(name)) names.push(name);
  return {
    source: context.source,
    listen: { ...parsed.listen },
    upstreams: names.map((name) => normalizeUpstream(name, parsed.upstreams[name] as ParsedUpstream, configDir)),
    naming: { strategy: parsed.naming.strategy, separator: parsed.naming.separator },
    http: {
      allowedHosts: [...parsed.http.allowedHosts],
      allowedOrigins: [...parsed.http.allowedOrigins],
      maxBodyBytes: parsed.http.maxBodySize,
      sessionIdleTimeoutMs: parsed.http.sessionIdleTimeout,
    },
    pageSize: parsed.pageSize,
    retry: { initialDelayMs: parsed.retry.initialDelay, maxDelayMs: parsed.retry.maxDelay },
    questions: { route: parsed.questions.route, timeoutMs: parsed.questions.timeout },
    console: { enabled: parsed.console.enabled, ...(parsed.console.token === undefined ? {} : { token: parsed.console.token }) },
    store: parsed.store.type === 'memory' ? { kind: 'memory' } : { kind: 'sqlite', path: resolve(configDir, parsed.store.path) },
    requestState: parsed.requestState.keys === undefined ? {} : { keys: [...parsed.requestState.keys] },
  };
}
