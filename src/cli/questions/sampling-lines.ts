/** @module A sampling request's system prompt, messages and token budget as terminal lines (text as is, other content summarised). */

import type { JsonObject } from '../../protocol/jsonrpc.js';
import { isObject } from '../../protocol/jsonrpc.js';
import { contentSummary } from '../content-summary.js';
import { safeText } from '../terminal-text.js';

/** `role: text` per message (continuation lines indented), after the system prompt; terminal-safe. */
export function samplingLines(params: JsonObject): string[] {
  const lines: string[] = [];
  const indent = (text: string) => safeText(text).replace(/\n/g, '\n    ');
  if (typeof params.systemPrompt === 'string' && params.systemPrompt !== '') lines.push(`  system: ${indent(params.systemPrompt)}`);
  const messages = Array.isArray(params.messages) ? params.messages.filter(isObject) : [];
  for (const message of messages) {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    const role = typeof message.role === 'string' ? message.role : 'unknown';
    lines.push(`  ${safeText(role)}: ${indent(blocks.map(contentSummary).join(' '))}`);
  }
  if (typeof params.maxTokens === 'number') lines.push(`  (at most ${params.maxTokens} tokens)`);
  return lines;
}
