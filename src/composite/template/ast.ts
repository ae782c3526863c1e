/** @module The composite template language's vocabulary: the parsed form of `{{ … }}`, the scope it reads, its error and its limits. */

import { LocalError } from '../../core/errors/local.js';

/** The roots a path may start at. */
export const TEMPLATE_ROOTS = ['input', 'steps', 'item', 'index'] as const;
export type TemplateRoot = (typeof TEMPLATE_ROOTS)[number];

/** What templates can see. `steps` maps a step id to its output. */
export interface TemplateScope {
  input?: unknown;
  steps?: Record<string, unknown>;
  item?: unknown;
  index?: number;
}

export type Literal = string | number | boolean | null;

export type Primary = { kind: 'path'; root: TemplateRoot; segments: (string | number)[] } | { kind: 'literal'; value: Literal };

export type Filter = { name: 'json' } | { name: 'length' } | { name: 'default'; value: Literal };

export interface Operand {
  negate: boolean;
  primary: Primary;
  filters: Filter[];
}

export interface Expression {
  left: Operand;
  comparison?: { op: '==' | '!='; right: Operand };
}

export type TemplatePart = { kind: 'text'; text: string } | { kind: 'expression'; expression: Expression; source: string };

/** A template that cannot be parsed or rendered; the message says which and why. */
export class TemplateError extends LocalError {
  override name = 'TemplateError';
  readonly code = 'template-invalid';
}

/** Longest single `{{ … }}` expression, and deepest value rendered: bounds on hostile input. */
export const TEMPLATE_LIMITS = { expressionChars: 1000, depth: 64 } as const;
