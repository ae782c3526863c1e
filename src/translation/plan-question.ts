/**
 * @module Decides what becomes of a question an upstream asks a host, given the host's revision and
 * declared capabilities: relay it (translated for the host), or refuse it with an error: for this host only
 * (it cannot receive the question; someone else may answer it), or for anyone (ill-formed, over the limits).
 */

import type { RelayableCapabilities } from '../protocol/capabilities.js';
import { upstreamClientCapabilities } from '../protocol/capabilities.js';
import { RpcCode } from '../protocol/errors.js';
import type { JsonObject, JsonRpcErrorObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { revisionAtLeast } from '../protocol/revisions.js';
import { shareAnswerForm } from './elicitation-answer.js';
import { translateElicitation } from './elicitation-downgrade.js';
import { checkRequestLimits } from './elicitation-limits.js';
import { checkRequestedSchema } from './elicitation-schema.js';
import { fitSamplingRequest } from './sampling-content.js';

export interface HostProfile {
  revision: string;
  /** The capabilities the host declared at initialize. */
  capabilities: JsonObject;
  /** What of them can be relayed (`upstreamClientCapabilities`), when the caller keeps it: computed here otherwise. */
  relayable?: RelayableCapabilities;
}

export type QuestionPlan =
  /**
   * Relay `params` to the host; `requestedSchema` is what its answer must satisfy (form elicitation).
   * `upstreamSchema` is set when the host was sent a downgraded form that left out defaults: its accepted answer
   * then gets the defaults it never saw (`fillHiddenDefaults`) and must also satisfy the upstream's own schema.
   */
  | { kind: 'relay'; params: JsonObject; requestedSchema?: JsonObject; upstreamSchema?: JsonObject }
  /**
   * Answer the upstream with a JSON-RPC error. `hostCannot`: the refusal is about this host only (its
   * revision or capabilities), so someone else (an operator) could still answer the question as asked.
   * `onlyHostCould`: only the host could answer it (its roots) and it did not declare the capability.
   */
  | { kind: 'refuse'; error: JsonRpcErrorObject; hostCannot?: true; onlyHostCould?: true };

/** The host cannot receive this elicitation: what a host lacking the capability answers (-32601). */
function elicitationHostCannot(why: string): QuestionPlan {
  return { kind: 'refuse', error: { code: RpcCode.MethodNotFound, message: `Cannot relay elicitation/create: ${why}` }, hostCannot: true };
}

export function planQuestion(method: string, params: JsonObject, host: HostProfile): QuestionPlan {
  const effective = host.relayable ?? upstreamClientCapabilities(host.capabilities, host.revision);
  switch (method) {
    case 'ping':
      return { kind: 'relay', params };
    case 'elicitation/create':
      return planElicitation(params, host, effective);
    case 'sampling/createMessage':
      return planSampling(params, host, effective);
    case 'roots/list':
      return effective.roots !== undefined
        ? { kind: 'relay', params }
        : { kind: 'refuse', error: { code: RpcCode.MethodNotFound, message: 'Cannot relay roots/list: the host did not declare the roots capability' }, onlyHostCould: true };
    default:
      return { kind: 'refuse', error: { code: RpcCode.MethodNotFound, message: `Method not found: ${method}` } };
  }
}

function planElicitation(params: JsonObject, host: HostProfile, effective: RelayableCapabilities): QuestionPlan {
  const limit = checkRequestLimits(params);
  if (limit) return { kind: 'refuse', error: { code: RpcCode.InvalidParams, message: `Elicitation refused: ${limit}` } };
  // An ill-formed form is the upstream's error whoever would receive it: refused before any capability question.
  const problem = checkRequestedSchema(params);
  if (problem) {
    return { kind: 'refuse', error: { code: RpcCode.InvalidParams, message: `Elicitation refused: ${problem.path} ${problem.reason}`, data: { path: problem.path } } };
  }
  const elicitation = effective.elicitation;
  if (elicitation === undefined) {
    const why = isObject(host.capabilities.elicitation)
      ? `a ${host.revision} host cannot receive elicitation (it needs 2025-06-18 or later)`
      : 'the host did not declare the elicitation capability';
    return elicitationHostCannot(why);
  }
  if (params.mode === 'url') {
    if (elicitation.url === undefined) {
      const message = revisionAtLeast(host.revision, '2025-11-25')
        ? `URL-mode elicitation refused: the host did not declare elicitation.url`
        : `URL-mode elicitation refused: a ${host.revision} host cannot receive it (it needs 2025-11-25 and elicitation.url)`;
      return { kind: 'refuse', error: { code: RpcCode.InvalidParams, message }, hostCannot: true };
    }
    return { kind: 'relay', params };
  }
  const translated = translateElicitation(params, host.revision);
  if (translated.kind === 'unsendable') return elicitationHostCannot(translated.reason);
  const schema = translated.params.requestedSchema;
  if (!isObject(schema)) return { kind: 'relay', params: translated.params };
  // The copy is the upstream's schema (a copy of an object) with nothing an answer is checked by changed: its answers
  // are checked with the upstream's compiled form.
  const original = params.requestedSchema as JsonObject;
  shareAnswerForm(schema, original);
  // A 2025-11-25 host gets the upstream's form as is, and its answer goes back as is; so does the answer of a host sent
  // a downgraded copy that left out no default (nothing to fill in, and the upstream's form is the one it was checked with).
  if (!translated.droppedDefaults) return { kind: 'relay', params: translated.params, requestedSchema: schema };
  return { kind: 'relay', params: translated.params, requestedSchema: schema, upstreamSchema: original };
}

function planSampling(params: JsonObject, host: HostProfile, effective: RelayableCapabilities): QuestionPlan {
  const sampling = effective.sampling;
  if (sampling === undefined) {
    return {
      kind: 'refuse',
      error: { code: RpcCode.MethodNotFound, message: 'Cannot relay sampling/createMessage: the host did not declare the sampling capability' },
      hostCannot: true,
    };
  }
  if ((params.tools !== undefined || params.toolChoice !== undefined) && sampling.tools === undefined) {
    const message = `Sampling refused: the host (${host.revision}) cannot run tools in sampling (it needs 2025-11-25 and sampling.tools)`;
    return { kind: 'refuse', error: { code: RpcCode.InvalidParams, message } };
  }
  const fitted = fitSamplingRequest(params, host.revision);
  if (!fitted.ok) return { kind: 'refuse', error: { code: RpcCode.InvalidParams, message: `Sampling refused: ${fitted.reason}` }, hostCannot: true };
  if (params.includeContext !== undefined && params.includeContext !== 'none' && sampling.context === undefined) {
    // Through a gateway "thisServer" would mean every upstream: without sampling.context, no context at all.
    return { kind: 'relay', params: { ...fitted.params, includeContext: 'none' } };
  }
  return { kind: 'relay', params: fitted.params };
}
