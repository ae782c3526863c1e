/**
 * @module The JSON Schema validator port: compile a schema once, then check values against it, each problem with where it is.
 *
 * Pure: no I/O. Callers see only these types, never the engine behind them (ajv, see ajv-validator.ts),
 * in the shape of the MCP SDK's `jsonSchemaValidator` provider: compile, then call the returned check.
 * A schema the engine cannot compile is a `{ok: false}` result, never a throw.
 */

/** One problem found in a value: which keyword failed, at which place in the value and in the schema. */
export interface SchemaIssue {
  /** JSON Pointer to the offending part of the checked value, `''` for the value itself, e.g. `/confirm`. */
  readonly instancePath: string;
  /** JSON Pointer to the failing keyword in the schema, e.g. `#/properties/confirm/type`. */
  readonly schemaPath: string;
  /** The keyword that failed: `type`, `required`, `enum`, `format`, `false schema`, … */
  readonly keyword: string;
  /** The keyword's parameters, e.g. `missingProperty` for `required`, `additionalProperty` for `additionalProperties: false`. */
  readonly params: Readonly<Record<string, unknown>>;
}

/** A checked value: valid, or every problem found (in the engine's order). */
export type SchemaCheck = { readonly ok: true } | { readonly ok: false; readonly issues: readonly SchemaIssue[] };

/** A compiled schema: call it once per value. */
export type ValueCheck = (value: unknown) => SchemaCheck;

/** The outcome of compiling: a check, or why the schema cannot be used. */
export type CompiledSchema = { readonly ok: true; readonly check: ValueCheck } | { readonly ok: false; readonly reason: string };

/** Compiles JSON Schemas (draft-07) into checks. Implementations cache: compiling an equal schema again is cheap. */
export interface JsonSchemaValidator {
  compile(schema: Readonly<Record<string, unknown>> | boolean): CompiledSchema;
}

/** The shared `{ok: true}` (checks return it rather than allocate one per call). */
export const VALID: SchemaCheck = Object.freeze({ ok: true });

/** The unescaped reference tokens of a JSON Pointer (RFC 6901): `/a~1b/0` gives `["a/b", "0"]`, `''` gives `[]`. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}
