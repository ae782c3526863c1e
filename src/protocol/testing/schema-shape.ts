/** @module A tiny structural JSON Schema check for tests: enough of draft 2020-12 to hold built objects against the official MCP schema.json. */

// No imports: protocol/ is a pure room (.dependency-cruiser.mjs), and this helper needs none.
type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Problems of `value` against `schema` (empty when it fits), resolving `#/$defs/…` and
 * `#/definitions/…` references in `root`. Understands `$ref`, `anyOf`/`oneOf` (one branch must
 * fit), `allOf`, `const`, `enum`, `type`, `required`, `properties`, `additionalProperties`, `items`
 * and `minimum`; ignores formats and everything else. With `closed`, a key that an object schema
 * neither lists in `properties` nor allows through `additionalProperties` is a problem too (the
 * schema.json leaves most objects open; closed catches fields a revision does not define).
 */
export function schemaProblems(root: JsonObject, schema: unknown, value: unknown, options: { closed?: boolean; path?: string } = {}): string[] {
  return check(root, schema, value, options.path ?? '$', options.closed === true, 0);
}

/** The definitions table of a schema.json (`$defs` from 2025-11-25 on, `definitions` before). */
export function definitionsOf(root: JsonObject): JsonObject {
  const defs = root.$defs ?? root.definitions;
  return isObject(defs) ? defs : {};
}

function resolve(root: JsonObject, ref: string): unknown {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  return match?.[2] === undefined ? undefined : definitionsOf(root)[match[2]];
}

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    case 'null':
      return value === null;
    default:
      return typeof value === type;
  }
}

function check(root: JsonObject, schema: unknown, value: unknown, path: string, closed: boolean, depth: number): string[] {
  if (depth > 64) return [`${path}: schema nesting too deep`];
  if (schema === true || schema === undefined) return [];
  if (schema === false) return [`${path}: no value is allowed here`];
  if (!isObject(schema)) return [];
  const out: string[] = [];
  if (typeof schema.$ref === 'string') {
    const target = resolve(root, schema.$ref);
    if (target === undefined) return [`${path}: unresolved ${schema.$ref}`];
    out.push(...check(root, target, value, path, closed, depth + 1));
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const results = branches.map((branch) => check(root, branch, value, path, closed, depth + 1));
    if (!results.some((problems) => problems.length === 0)) out.push(`${path}: fits no ${key} branch (${results.map((p) => p[0] ?? '').join(' | ')})`);
  }
  if (Array.isArray(schema.allOf)) for (const branch of schema.allOf) out.push(...check(root, branch, value, path, closed, depth + 1));
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) out.push(`${path}: must be ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => JSON.stringify(option) === JSON.stringify(value))) out.push(`${path}: not in enum`);
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((type) => typeof type === 'string' && typeMatches(type, value))) return [...out, `${path}: not of type ${types.join('|')}`];
  }
  if (typeof schema.minimum === 'number' && typeof value === 'number' && value < schema.minimum) out.push(`${path}: below ${schema.minimum}`);
  if (Array.isArray(value) && schema.items !== undefined) value.forEach((item, i) => out.push(...check(root, schema.items, item, `${path}[${i}]`, closed, depth + 1)));
  if (isObject(value)) {
    const properties = isObject(schema.properties) ? schema.properties : undefined;
    if (Array.isArray(schema.required)) {
      for (const key of schema.required) if (typeof key === 'string' && !Object.hasOwn(value, key)) out.push(`${path}: missing ${key}`);
    }
    for (const [key, child] of Object.entries(value)) {
      if (properties !== undefined && Object.hasOwn(properties, key)) out.push(...check(root, properties[key], child, `${path}.${key}`, closed, depth + 1));
      else if (schema.additionalProperties === false) out.push(`${path}: unexpected key ${key}`);
      else if (isObject(schema.additionalProperties)) out.push(...check(root, schema.additionalProperties, child, `${path}.${key}`, closed, depth + 1));
      else if (closed && properties !== undefined && schema.additionalProperties === undefined) out.push(`${path}: key ${key} is not defined`);
    }
  }
  return out;
}
