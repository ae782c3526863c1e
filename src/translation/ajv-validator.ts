/**
 * @module The JSON Schema validator port implemented with ajv (draft-07) and ajv-formats, with a bounded cache of compiled schemas.
 *
 * Pure: no I/O. Options: `strict` (an unknown keyword or a type-less keyword is a compile error, so a
 * schema that means something ajv would ignore is refused), `allErrors` (callers pick the problem they
 * report), `strictNumbers` (NaN and ±Infinity are not numbers), no remote or unknown `$ref` (compilation
 * is synchronous and nothing is ever loaded), nothing added to the engine's schema registry, no logging.
 * Formats: `email` and `uri` keep the gateway's lenient rules (an `@` between non-empty parts with a dot in the
 * domain; a scheme, a colon and no whitespace), because a relay must not refuse an answer the upstream may well
 * accept (non-ASCII addresses and paths among them); `date` as ajv-formats' full mode has it; `date-time` is ajv-formats'
 * check (calendar, ranges, leap seconds) on RFC 3339 §5.6's exact shape (`T`, and an offset `Z` or
 * `±HH:MM`), which ajv-formats relaxes to a space separator and `±HHMM`/`±HH`. Any other format name
 * fails to compile.
 *
 * Cache: one entry per distinct schema, keyed by its canonical JSON text (so an equal schema built
 * afresh compiles once) and, in front of that, by object identity (so the same object skips the text).
 * Schemas are treated as immutable once compiled. Past `cacheSize` entries the least recently used is
 * dropped from ajv too, so memory stays bounded however many distinct schemas pass.
 */

import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

import { canonicalJson } from '../protocol/canonical-json.js';
import { isObject } from '../protocol/jsonrpc.js';
import type { CompiledSchema, JsonSchemaValidator, SchemaCheck, SchemaIssue } from './schema-validator.js';
import { VALID } from './schema-validator.js';

export const DEFAULT_SCHEMA_CACHE_SIZE = 512;

/** `email`: one `@` between non-empty parts without whitespace, and a dot inside the domain. */
const LENIENT_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** `uri`: a scheme, a colon, and no whitespace. */
const LENIENT_URI = /^[a-zA-Z][a-zA-Z0-9+.-]*:\S*$/;

/** RFC 3339 §5.6 `date-time`: `full-date "T" full-time`, the offset mandatory and written `±HH:MM`. */
const RFC3339_DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

function createEngine(): Ajv {
  const ajv = new Ajv({
    strict: true,
    strictRequired: false,
    allErrors: true,
    strictNumbers: true,
    messages: false,
    logger: false,
    addUsedSchema: false,
    validateFormats: true,
  });
  const formats = addFormats.default;
  formats(ajv, ['date']);
  ajv.addFormat('email', LENIENT_EMAIL);
  ajv.addFormat('uri', LENIENT_URI);
  const definition: unknown = formats.get('date-time');
  const base = isObject(definition) && typeof definition.validate === 'function' ? (definition.validate as (text: string) => boolean) : undefined;
  if (base === undefined) throw new Error('ajv-formats has no date-time validator');
  ajv.addFormat('date-time', { type: 'string', validate: (text: string) => RFC3339_DATE_TIME.test(text) && base(text) });
  return ajv;
}

function toIssue(error: ErrorObject): SchemaIssue {
  return { instancePath: error.instancePath, schemaPath: error.schemaPath, keyword: error.keyword, params: error.params };
}

function checkWith(validate: ValidateFunction): (value: unknown) => SchemaCheck {
  return (value) => (validate(value) ? VALID : { ok: false, issues: (validate.errors ?? []).map(toIssue) });
}

interface Entry {
  readonly schema: object | boolean;
  readonly compiled: CompiledSchema;
}

/** The ajv-backed {@link JsonSchemaValidator}; `cacheSize` bounds the compiled schemas it keeps. */
export class AjvSchemaValidator implements JsonSchemaValidator {
  readonly #ajv = createEngine();
  readonly #cacheSize: number;
  readonly #byText = new Map<string, Entry>();
  readonly #byObject = new WeakMap<object, Entry>();

  constructor(options: { cacheSize?: number } = {}) {
    this.#cacheSize = Math.max(1, Math.floor(options.cacheSize ?? DEFAULT_SCHEMA_CACHE_SIZE));
  }

  /** How many compiled schemas are held (for tests of the bound). */
  get cached(): number {
    return this.#byText.size;
  }

  compile(schema: Readonly<Record<string, unknown>> | boolean): CompiledSchema {
    const known = typeof schema === 'object' ? this.#byObject.get(schema) : undefined;
    if (known !== undefined) return known.compiled;
    let text: string;
    try {
      text = canonicalJson(schema);
    } catch (error) {
      return { ok: false, reason: `the schema is not JSON (${(error as Error).message})` };
    }
    const hit = this.#byText.get(text);
    if (hit !== undefined) {
      this.#byText.delete(text);
      this.#byText.set(text, hit);
      if (typeof schema === 'object') this.#byObject.set(schema, hit);
      return hit.compiled;
    }
    const entry: Entry = { schema, compiled: this.#compileNew(schema) };
    this.#byText.set(text, entry);
    if (typeof schema === 'object') this.#byObject.set(schema, entry);
    this.#evict();
    return entry.compiled;
  }

  #compileNew(schema: object | boolean): CompiledSchema {
    try {
      return { ok: true, check: checkWith(this.#ajv.compile(schema)) };
    } catch (error) {
      this.#forget(schema);
      return { ok: false, reason: (error as Error).message };
    }
  }

  #evict(): void {
    while (this.#byText.size > this.#cacheSize) {
      const [oldest, entry] = this.#byText.entries().next().value as [string, Entry];
      this.#byText.delete(oldest);
      if (typeof entry.schema === 'object') this.#byObject.delete(entry.schema);
      this.#forget(entry.schema);
    }
  }

  /** Drops ajv's own reference to a schema object (ajv caches every compiled schema by identity, unbounded). */
  #forget(schema: object | boolean): void {
    if (typeof schema !== 'object') return;
    try {
      this.#ajv.removeSchema(schema);
    } catch {
      // A schema ajv never registered (it failed before that) has nothing to drop.
    }
  }
}

let shared: AjvSchemaValidator | undefined;

/** The process-wide validator the elicitation checks use (built on first use). */
export function sharedSchemaValidator(): JsonSchemaValidator {
  shared ??= new AjvSchemaValidator();
  return shared;
}
