/** @module The tools/call result a composite run gives its host: the rendered output, a summary of the steps, or an isError text. */

import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import type { CompositeDefinition } from './definition.js';
import { errorText } from './signals.js';
import type { TemplateScope } from './template/ast.js';
import { render, toText } from './template/render.js';

export function errorResult(text: string): JsonObject {
  return { content: [{ type: 'text', text }], isError: true };
}

export function textResult(text: string, structuredContent?: JsonObject): JsonObject {
  return structuredContent === undefined ? { content: [{ type: 'text', text }] } : { content: [{ type: 'text', text }], structuredContent };
}

/**
 * The result of a run that ended normally (all steps done, or stopped by `skip-remaining`):
 * - with `output` and `outputSchema`: the rendered output is the structuredContent (it must be an object) and its JSON the text;
 * - with `output` only: the rendered output as text (JSON for a non-string);
 * - without `output`: the text of the step that finished last (`lastOutput`: a tool's text, an answer's JSON), plus `note`.
 * Gives `{ error }` when the output cannot be rendered or is not an object where one is needed.
 */
export function finalResult(definition: CompositeDefinition, scope: TemplateScope, lastOutput: unknown, note: string | undefined): { result: JsonObject } | { error: string } {
  if (definition.output !== undefined) {
    let rendered: unknown;
    try {
      rendered = render(definition.output, scope);
    } catch (error) {
      return { error: `its output could not be rendered: ${errorText(error)}` };
    }
    if (definition.outputSchema !== undefined) {
      if (!isObject(rendered)) return { error: 'its output did not render an object, and the tool has an outputSchema' };
      return { result: textResult(JSON.stringify(rendered), rendered) };
    }
    return { result: textResult(withNote(toText(rendered), note)) };
  }
  return { result: textResult(withNote(outputText(lastOutput), note)) };
}

function withNote(text: string, note: string | undefined): string {
  if (note === undefined) return text;
  return text === '' ? note : `${text}\n\n${note}`;
}

/** How a step's output reads as the composite's text: a tool's text, a forEach's texts a line each, anything else as JSON. */
export function outputText(output: unknown): string {
  if (output === undefined) return '';
  if (isObject(output) && typeof output.text === 'string') return output.text;
  if (Array.isArray(output)) return output.map(outputText).filter((text) => text !== '').join('\n');
  return toText(output);
}
