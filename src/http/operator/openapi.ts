/** @module The OpenAPI 3.1 document of the operator routes, generated from the route table and the zod schemas the handlers validate with. */

import { z } from 'zod';

import { COMPONENT_SCHEMAS } from './api-schemas.js';
import type { ComponentName } from './api-schemas.js';
import { OPERATOR_ERRORS } from './operator-errors.js';
import type { OperatorErrorCode } from './operator-errors.js';
import { OPERATOR_ROUTES } from './route-table.js';
import type { ResponseBody, RouteSpec } from './route-table.js';

type Json = Record<string, unknown>;

const ref = (name: ComponentName): Json => ({ $ref: `#/components/schemas/${name}` });

/** A zod schema as a plain JSON Schema fragment (no `$schema`). */
function jsonSchemaOf(schema: z.ZodType): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Json;
  return rest;
}

function components(): Json {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(COMPONENT_SCHEMAS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', io: 'output', uri: (id) => `#/components/schemas/${id}` }) as { schemas: Record<string, Json> };
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => {
      const { $schema: _dialect, $id: _id, ...rest } = schema;
      return [name, rest];
    }),
  );
}

function content(body: ResponseBody): Json {
  if ('schema' in body) return { 'application/json': { schema: ref(body.schema) } };
  if ('arrayOf' in body) return { 'application/json': { schema: { type: 'array', items: ref(body.arrayOf) } } };
  return { [body.mediaType]: { schema: { type: 'string', description: body.description } } };
}

function parameters(route: RouteSpec): Json[] {
  const path = Object.entries(route.pathParams ?? {}).map(([name, description]) => ({ name, in: 'path', required: true, description, schema: { type: 'string' } }));
  const query = Object.entries(route.query?.shape ?? {}).map(([name, schema]) => {
    const { description, ...rest } = jsonSchemaOf((schema as z.ZodOptional).unwrap() as z.ZodType);
    const parameter: Json = { name, in: 'query', required: false, schema: rest };
    const said = description ?? (schema as z.ZodType).description;
    if (said !== undefined) parameter.description = said;
    if (rest.type === 'array') Object.assign(parameter, { style: 'form', explode: true });
    return parameter;
  });
  return [...path, ...query];
}

/** The error responses of a route, one per status, naming the catalogue codes that share it. */
function errorResponses(route: RouteSpec): Record<string, Json> {
  const codes: OperatorErrorCode[] = [...(route.auth ? (['UNAUTHORIZED'] as const) : []), ...route.errors];
  const byStatus = new Map<number, OperatorErrorCode[]>();
  for (const code of codes) {
    const status = OPERATOR_ERRORS[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, Json> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const response: Json = { description: list.map((code) => `${code}: ${OPERATOR_ERRORS[code].summary}`).join(' '), content: { 'application/json': { schema: ref('Error') } } };
    if (status === 401) response.headers = { 'WWW-Authenticate': { description: 'Bearer', schema: { type: 'string' } } };
    responses[String(status)] = response;
  }
  return responses;
}

function operation(route: RouteSpec): Json {
  const op: Json = { operationId: route.id, summary: route.summary };
  if (route.description !== undefined) op.description = route.description;
  op.tags = [route.tag];
  op.security = route.auth ? [{ bearer: [] }] : [];
  const params = parameters(route);
  if (params.length > 0) op.parameters = params;
  if (route.body !== undefined) op.requestBody = { required: true, content: { 'application/json': { schema: ref(route.body) } } };
  op.responses = { '200': { description: route.ok.description, content: content(route.ok.body) }, ...errorResponses(route) };
  return op;
}

export function operatorOpenApi(routes: readonly RouteSpec[] = OPERATOR_ROUTES): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Switchboard operator API',
      version: '1',
      description:
        'Questions that upstream MCP servers ask back (elicitation, sampling, roots) and that go to a human operator: list, inspect, answer, follow live; and the runs of composite tools, step by step. Errors: docs/operator-api.md.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    tags: [
      { name: 'questions', description: 'The question broker, seen by an operator.' },
      { name: 'runs', description: 'Composite tool runs: every step, its timings, its answer.' },
      { name: 'meta', description: 'This document.' },
      { name: 'console', description: 'The web console (no authentication: it holds no data).' },
    ],
    paths,
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The operator token from the gateway configuration.' } }, schemas: components() },
  };
}

/** docs/openapi.json as it must be committed: pretty-printed with a trailing newline. */
export function operatorOpenApiText(): string {
  return `${JSON.stringify(operatorOpenApi(), null, 2)}\n`;
}
