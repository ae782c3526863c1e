/** @module Which route policy and timeout a question gets: per tool, else per upstream, else the gateway's default. */

import type { RoutePolicy } from './question.js';
import type { NormalizedConfig, QuestionAnswerer } from '../config/types.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { revisionAtLeast } from '../protocol/revisions.js';

export interface QuestionSettings {
  route: RoutePolicy;
  timeoutMs: number;
}

export interface QuestionPolicyConfig {
  defaults: QuestionSettings;
  /** `operator`: sampling is promised to upstreams even for hosts that cannot sample (an operator replies). Default `host`. */
  sampling?: QuestionAnswerer;
  /** `operator`: consent questions go to an operator even when the host could take them. Default `host`. */
  consent?: QuestionAnswerer;
  /** By upstream name; `tools` by the upstream's own tool name. */
  upstreams?: Record<string, Partial<QuestionSettings> & { tools?: Record<string, Partial<QuestionSettings>> }>;
}

export const DEFAULT_QUESTION_SETTINGS: QuestionSettings = { route: 'host-then-operator', timeoutMs: 5 * 60_000 };

export class QuestionPolicy {
  #config: QuestionPolicyConfig;
  /** Who may answer sampling for a host that cannot sample (`questions.sampling`). */
  readonly sampling: QuestionAnswerer;
  /** Who answers consent questions the host could take (`questions.consent`). */
  readonly consent: QuestionAnswerer;

  constructor(config: QuestionPolicyConfig = { defaults: DEFAULT_QUESTION_SETTINGS }) {
    this.#config = config;
    this.sampling = config.sampling ?? 'host';
    this.consent = config.consent ?? 'host';
  }

  /** The policy a config file sets: `questions` at the top, and each upstream's `questions` (with its `tools`). */
  static fromConfig(config: Pick<NormalizedConfig, 'questions' | 'upstreams'>): QuestionPolicy {
    const upstreams: NonNullable<QuestionPolicyConfig['upstreams']> = {};
    for (const spec of config.upstreams) if (spec.questions) upstreams[spec.name] = spec.questions;
    const { route, timeoutMs, sampling, consent } = config.questions;
    return new QuestionPolicy({ defaults: { route, timeoutMs }, upstreams, sampling, consent });
  }

  /** The settings for a question from `upstream`, asked during a call of its tool `tool` (the upstream's name for it). */
  for(upstream: string, tool?: string): QuestionSettings {
    const perUpstream = this.#config.upstreams?.[upstream];
    const perTool = tool === undefined ? undefined : perUpstream?.tools?.[tool];
    return {
      route: perTool?.route ?? perUpstream?.route ?? this.#config.defaults.route,
      timeoutMs: perTool?.timeoutMs ?? perUpstream?.timeoutMs ?? this.#config.defaults.timeoutMs,
    };
  }

  /** Whether any question from `upstream` may reach an operator (then the gateway declares what an operator can answer). */
  operatorMayAnswer(upstream: string): boolean {
    const perUpstream = this.#config.upstreams?.[upstream];
    if (this.for(upstream).route !== 'host') return true;
    return Object.values(perUpstream?.tools ?? {}).some((tool) => tool.route !== undefined && tool.route !== 'host');
  }
}

/**
 * What the gateway declares to an upstream on an operator's behalf, in the upstream session's revision,
 * merged over what the host declared (never removing any of it): form elicitation (from 2025-06-18), which
 * is what the desk is for; URL elicitation (from 2025-11-25) only when consent questions go to an operator
 * (`questions.consent: operator`); plain sampling only when an operator answers it (`questions.sampling:
 * operator`). Roots are never added: only the host knows its roots.
 */
export function withOperatorCapabilities(capabilities: JsonObject, revision: string, answerers: { sampling: QuestionAnswerer; consent: QuestionAnswerer }): JsonObject {
  const out: JsonObject = { ...capabilities };
  if (revisionAtLeast(revision, '2025-11-25')) {
    const current = typeof out.elicitation === 'object' && out.elicitation !== null ? (out.elicitation as JsonObject) : {};
    const url = current.url ?? (answerers.consent === 'operator' ? {} : undefined);
    out.elicitation = { ...current, form: current.form ?? {}, ...(url === undefined ? {} : { url }) };
  } else if (revisionAtLeast(revision, '2025-06-18')) {
    out.elicitation = out.elicitation ?? {};
  }
  if (answerers.sampling === 'operator') out.sampling = out.sampling ?? {};
  return out;
}
