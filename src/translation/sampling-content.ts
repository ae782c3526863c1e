/**
 * @module Sampling content across revisions: 2025-11-25 allows an array of blocks and tool_use /
 * tool_result blocks, 2025-03-26 added audio, 2024-11-05 has one text or image block per message.
 * Content an older peer cannot hold is collapsed when it is a single block, refused otherwise.
 */

import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { revisionAtLeast } from '../protocol/revisions.js';

/** The content block types a revision allows in sampling messages and results. */
function allowedBlocks(revision: string): Set<string> {
  if (revisionAtLeast(revision, '2025-11-25')) return new Set(['text', 'image', 'audio', 'tool_use', 'tool_result']);
  if (revisionAtLeast(revision, '2025-03-26')) return new Set(['text', 'image', 'audio']);
  return new Set(['text', 'image']);
}

/**
 * Makes one message's (or result's) `content` fit `revision`: unchanged when it already fits, a
 * one-block array collapsed to the block for peers before 2025-11-25, an error reason otherwise.
 */
export function fitSamplingContent(content: unknown, revision: string): { ok: true; content: unknown } | { ok: false; reason: string } {
  const allowed = allowedBlocks(revision);
  let value = content;
  if (Array.isArray(value) && !revisionAtLeast(revision, '2025-11-25')) {
    if (value.length !== 1) return { ok: false, reason: `${value.length} content blocks in one message, which ${revision} peers cannot hold (only one)` };
    value = value[0];
  }
  for (const block of Array.isArray(value) ? value : [value]) {
    const type = isObject(block) ? block.type : undefined;
    if (typeof type !== 'string' || !allowed.has(type)) return { ok: false, reason: `a ${String(type)} content block, which ${revision} peers cannot hold` };
  }
  return { ok: true, content: value };
}

/** Fits every message of a sampling request for a host at `revision`. */
export function fitSamplingRequest(params: JsonObject, revision: string): { ok: true; params: JsonObject } | { ok: false; reason: string } {
  if (!Array.isArray(params.messages)) return { ok: true, params };
  const messages: unknown[] = [];
  for (const message of params.messages) {
    if (!isObject(message)) return { ok: false, reason: 'a sampling message is not an object' };
    const fitted = fitSamplingContent(message.content, revision);
    if (!fitted.ok) return fitted;
    messages.push(fitted.content === message.content ? message : { ...message, content: fitted.content });
  }
  return { ok: true, params: { ...params, messages } };
}

/** Fits a host's sampling result for an upstream at `revision`. */
export function fitSamplingResult(result: JsonObject, revision: string): { ok: true; result: JsonObject } | { ok: false; reason: string } {
  const fitted = fitSamplingContent(result.content, revision);
  if (!fitted.ok) return fitted;
  return { ok: true, result: fitted.content === result.content ? result : { ...result, content: fitted.content } };
}
