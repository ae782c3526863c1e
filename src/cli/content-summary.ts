/** @module One MCP content block as terminal text: text as it is, anything else summarised (`[image image/png ~12 KB]`), as the console does. */

import { isObject } from '../protocol/jsonrpc.js';

function sizeOf(data: unknown): string {
  return typeof data === 'string' ? ` ~${Math.max(1, Math.round((data.length * 3) / 4 / 1024))} KB` : '';
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A text block's text; a one-bracket summary of any other block. The result is not yet made terminal-safe. */
export function contentSummary(block: unknown): string {
  if (!isObject(block)) return '[empty]';
  switch (block.type) {
    case 'text':
      return str(block.text);
    case 'image':
    case 'audio':
      return `[${block.type} ${str(block.mimeType) || 'unknown type'}${sizeOf(block.data)}]`;
    case 'resource_link':
      return `[resource link ${[str(block.name), str(block.uri)].filter(Boolean).join(' ')}]`;
    case 'resource': {
      const resource = isObject(block.resource) ? block.resource : {};
      const kind = typeof resource.text === 'string' ? `, ${[...resource.text].length} characters of text` : typeof resource.blob === 'string' ? `,${sizeOf(resource.blob)}` : '';
      return `[resource ${str(resource.uri)}${str(resource.mimeType) ? ` ${str(resource.mimeType)}` : ''}${kind}]`;
    }
    case 'tool_use':
      return `[tool call ${str(block.name)}]`;
    case 'tool_result':
      return '[tool result]';
    default:
      return `[${typeof block.type === 'string' ? block.type : 'unknown'} content]`;
  }
}
