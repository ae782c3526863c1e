/** @module Which route policy and timeout a question gets: per tool, else per upstream, else the gateway's default. */

import type { RoutePolicy } from '../broker/question.js';
import type { NormalizedConfig } from '../config/types.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { revisionAtLeast } from '../protocol/revisions.js';

export interface QuestionSettings {
  route: RoutePolicy;
  timeoutMs: number;
}

export interface QuestionPolicyConfig {
  defaults: QuestionSettings;
  /** By upstream name; `tools` by the upstream's own tool name. */
  upstreams?: Record<string, Partial<QuestionSettings> & { tools?: Record<string, Partial<QuestionSettings>> }>;
}

export const DEFAULT_QUESTION_SETTINGS: QuestionSettings = { route: 'host-then-operator', timeoutMs: 5 * 60_000 };

export class QuestionPolicy {
  #config: QuestionPolicyConfig;

  constructor(config: QuestionPolicyConfig = { defaults: DEFAULT_QUESTION_SETTINGS }) {
    this.#config = config;
  }

  /** The policy a config file sets: `questions` at the top, and each upstream's `questions` (with its `tools`). */
  static fromConfig(config: Pick<NormalizedConfig, 'questions' | 'upstreams'>): QuestionPolicy {
    const upstreams: NonNullable<QuestionPolicyConfig['upstreams']> = {};
    for (const spec of config.upstreams) if (spec.questions) upstreams[spec.name] = spec.questions;
    return new QuestionPolicy({ defaults: { route: config.questions.route, timeoutMs: config.questions.timeoutMs }, upstreams });
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
 * What the gateway declares to an upstream on an operator's behalf, in the upstream session's revision:
 * form and URL elicitation (from 2025-06-18; URL from 2025-11-25) and plain sampling (a written reply).
 * Merged over what the host declared, never removing any of it.
 */
export function withOperatorCapabilities(capabilities: JsonObject, revision: string): JsonObject {
  const out: JsonObject = { ...capabilities };
  if (revisionAtLeast(revision, '2025-11-25')) {
    const current = typeof out.elicitation === 'object' && out.elicitation !== null ? (out.elicitation as JsonObject) : {};
    out.elicitation = { ...current, form: current.form ?? {}, url: current.url ?? {} };
  } else if (revisionAtLeast(revision, '2025-06-18')) {
    out.elicitation = out.elicitation ?? {};
  }
  out.sampling = out.sampling ?? {};
  return out;
}
