/** @module From the validated config file to the normalized IR the gateway core consumes. */

import { dirname, resolve } from 'node:path';
import { COMPOSITE_DEFAULTS } from '../composite/definition.js';
import type { CompositeDefinition, CompositeStep, ElicitStep, ResourceStep, ToolStep } from '../composite/definition.js';
import { OUTCOME_DEFAULTS } from '../composite/schema.js';
import { normalizeAuth as normalizeAccess, normalizePolicy } from './normalize-auth.js';
import { normalizeNotify } from './normalize-notify.js';
import type { ParsedConfigFile } from './schema.js';
import type { NormalizedConfig, OAuthSettings, QuestionOverride, ToolFilter, UpstreamSpec } from './types.js';

type ParsedUpstream = ParsedConfigFile['upstreams'][string];
type ParsedComposite = Exclude<NonNullable<ParsedConfigFile['composites']>, string>[string];
type ParsedStep = ParsedComposite['steps'][number];
type ParsedInnerStep = NonNullable<ParsedStep['forEach']>['step'];

export interface NormalizeContext {
  /** Absolute path of the config file; relative `cwd`s are resolved against its folder. */
  source: string;
  /** Upstream names in file order (the parsed object may have reordered integer-like names). */
  upstreamOrder: readonly string[];
  /** Composite names in file order (likewise). */
  compositeOrder?: readonly string[];
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
    lists: upstream.lists,
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

/** A tool, resource or elicit step (top-level or inside a forEach), with the defaults of its kind. */
function normalizeCalledStep(step: ParsedStep | ParsedInnerStep, id: string, dependsOn: string[]): ToolStep | ResourceStep | ElicitStep {
  const base = { id, dependsOn, ...(step.condition === undefined ? {} : { condition: step.condition }) };
  if (step.tool !== undefined) {
    const dot = step.tool.indexOf('.');
    return {
      ...base,
      kind: 'tool',
      upstream: step.tool.slice(0, dot),
      tool: step.tool.slice(dot + 1),
      arguments: structuredClone(step.arguments ?? {}),
      retry: { count: step.retry?.count ?? COMPOSITE_DEFAULTS.retryCount, backoffMs: step.retry?.backoff ?? COMPOSITE_DEFAULTS.backoffMs },
      timeoutMs: step.timeout ?? COMPOSITE_DEFAULTS.stepTimeoutMs,
    };
  }
  if (step.resource !== undefined) {
    const { upstream, uri } = step.resource;
    return { ...base, kind: 'resource', upstream, uri, timeoutMs: step.timeout ?? COMPOSITE_DEFAULTS.stepTimeoutMs };
  }
  // The schema guarantees a step that is neither (nor a forEach, for the callers) is an elicit step.
  const elicit = step.elicit ?? { message: '', requestedSchema: {} };
  return {
    ...base,
    kind: 'elicit',
    message: elicit.message,
    requestedSchema: structuredClone(elicit.requestedSchema),
    timeoutMs: step.timeout ?? COMPOSITE_DEFAULTS.elicitTimeoutMs,
    onAccept: step.onAccept ?? OUTCOME_DEFAULTS.onAccept,
    onDecline: step.onDecline ?? OUTCOME_DEFAULTS.onDecline,
    onCancel: step.onCancel ?? OUTCOME_DEFAULTS.onCancel,
    onTimeout: step.onTimeout ?? OUTCOME_DEFAULTS.onTimeout,
  };
}

function normalizeStep(step: ParsedStep): CompositeStep {
  const dependsOn = [...step.dependsOn];
  if (step.forEach === undefined) return normalizeCalledStep(step, step.id, dependsOn);
  const { items, concurrency, step: inner } = step.forEach;
  return {
    id: step.id,
    dependsOn,
    ...(step.condition === undefined ? {} : { condition: step.condition }),
    kind: 'forEach',
    items,
    concurrency,
    step: normalizeCalledStep(inner, inner.id ?? step.id, []),
  };
}

function normalizeComposite(name: string, composite: ParsedComposite): CompositeDefinition {
  return {
    name,
    description: composite.description,
    inputSchema: structuredClone(composite.inputSchema),
    ...(composite.outputSchema === undefined ? {} : { outputSchema: structuredClone(composite.outputSchema) }),
    ...(composite.output === undefined ? {} : { output: structuredClone(composite.output) }),
    steps: composite.steps.map(normalizeStep),
    limits: { maxSteps: composite.limits.maxSteps, maxForEachItems: composite.limits.maxForEachItems, totalTimeoutMs: composite.limits.totalTimeout },
  };
}

/** The composites in file order; `composites` must be the map by now (load reads a file path in its place). */
export function normalizeComposites(composites: ParsedConfigFile['composites'], order: readonly string[] = []): CompositeDefinition[] {
  if (composites === undefined) return [];
  if (typeof composites === 'string') throw new Error(`composites: the file ${composites} was not read (use loadConfig or parseConfigText)`);
  const names = order.filter((name) => Object.hasOwn(composites, name));
  for (const name of Object.keys(composites)) if (!names.includes(name)) names.push(name);
  return names.map((name) => normalizeComposite(name, composites[name] as ParsedComposite));
}

function normalizeStore(store: ParsedConfigFile['store'], configDir: string): NormalizedConfig['store'] {
  if (store.type === 'memory') return { kind: 'memory' };
  // load fills in `url` from the environment, or reports its absence, before this runs.
  if (store.type === 'postgres') return { kind: 'postgres', url: store.url ?? '', poolSize: store.poolSize, schema: store.schema };
  return { kind: 'sqlite', path: resolve(configDir, store.path) };
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
      ...(parsed.http.publicUrl === undefined ? {} : { publicUrl: parsed.http.publicUrl.replace(/\/+$/, '') }),
      allowedHosts: [...parsed.http.allowedHosts],
      allowedOrigins: [...parsed.http.allowedOrigins],
      maxBodyBytes: parsed.http.maxBodySize,
      sessionIdleTimeoutMs: parsed.http.sessionIdleTimeout,
      maxJsonDepth: parsed.http.maxJsonDepth,
      maxSessions: parsed.http.maxSessions,
      maxSessionsPerPrincipal: parsed.http.maxSessionsPerPrincipal,
      maxStandIns: parsed.http.maxStandIns,
      headersTimeoutMs: parsed.http.headersTimeout,
      requestTimeoutMs: parsed.http.requestTimeout,
      maxConnections: parsed.http.maxConnections,
    },
    pageSize: parsed.pageSize,
    retry: { initialDelayMs: parsed.retry.initialDelay, maxDelayMs: parsed.retry.maxDelay },
    questions: {
      approvers: Object.fromEntries(Object.entries(parsed.questions.tools).map(([tool, settings]) => [tool, settings.approvers])),
      route: parsed.questions.route, timeoutMs: parsed.questions.timeout, sampling: parsed.questions.sampling, consent: parsed.questions.consent,
    },
    console: { enabled: parsed.console.enabled, ...(parsed.console.token === undefined ? {} : { token: parsed.console.token }) },
    auth: normalizeAccess(parsed.auth),
    policy: normalizePolicy(parsed.policy),
    store: normalizeStore(parsed.store, configDir),
    cluster: {
      ...(parsed.cluster.id === undefined ? {} : { id: parsed.cluster.id }),
      ...(parsed.cluster.advertise === undefined ? {} : { link: { advertise: parsed.cluster.advertise.replace(/\/+$/, ''), secret: parsed.cluster.secret ?? '' } }),
      deadAfterMs: parsed.cluster.deadAfter,
      drainTimeoutMs: parsed.cluster.drainTimeout,
    },
    requestState: parsed.requestState.keys === undefined ? {} : { keys: [...parsed.requestState.keys] },
    log: { format: parsed.log.format },
    tracing: { ...parsed.tracing, ...(parsed.tracing.headers ? { headers: { ...parsed.tracing.headers } } : {}) },
    composites: normalizeComposites(parsed.composites, context.compositeOrder),
    notify: normalizeNotify(parsed.notify),
  };
}
