/** @module Cross-checks the 2026-07-28 rules and builders against the official schema.json (skipped when ../shared is absent). */

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import { CACHEABLE_METHODS, withCacheHints } from './cache-hints.js';
import { upstreamClientCapabilities } from './capabilities.js';
import { RpcCode } from './errors.js';
import { INPUT_REQUEST_METHODS, INPUT_REQUIRED_METHODS, inputRequiredResult } from './input-required.js';
import { retryParams } from './input-retry.js';
import type { JsonObject } from './jsonrpc.js';
import { isObject } from './jsonrpc.js';
import { LOG_LEVELS, REQUEST_META } from './meta-keys.js';
import { modernClientCapabilities } from './modern-client-capabilities.js';
import { headerMismatchError, missingCapabilityError, unsupportedVersionError } from './modern-errors.js';
import { upstreamEnvelope, withRequestEnvelope } from './request-envelope.js';
import { withCompleteResultType } from './result-type.js';
import { MODERN_REVISION, SUPPORTED_REVISIONS } from './revisions.js';
import { listenEndResult, onListenStream, subscriptionsAcknowledged } from './subscriptions.js';
import { definitionsOf, schemaProblems } from './testing/schema-shape.js';

const SKIP = 'cross-check skipped: no ../shared/mcp-schemas beside this checkout';

function loadSchema(): JsonObject | undefined {
  const url = new URL(`../../../shared/mcp-schemas/${MODERN_REVISION}/schema.json`, import.meta.url);
  return existsSync(url) ? (JSON.parse(readFileSync(url, 'utf8')) as JsonObject) : undefined;
}

const schema = loadSchema();

function def(name: string): JsonObject {
  const found = schema === undefined ? undefined : definitionsOf(schema)[name];
  assert.ok(isObject(found), `schema.json defines ${name}`);
  return found;
}

function fits(name: string, value: unknown, closed = true): string[] {
  return schema === undefined ? [] : schemaProblems(schema, def(name), value, { closed, path: name });
}

/** The method a request definition fixes (`properties.method.const`). */
function methodOf(definition: JsonObject): string | undefined {
  const method = isObject(definition.properties) ? definition.properties.method : undefined;
  return isObject(method) && typeof method.const === 'string' ? method.const : undefined;
}

const ELICIT_FORM = { mode: 'form', message: 'Restart payments-api?', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } };

test('cross-check: the key and value lists match the schema', (t) => {
  if (schema === undefined) return t.skip(SKIP);
  const levels = def('LoggingLevel').enum as string[];
  assert.deepEqual([...levels].sort(), [...LOG_LEVELS].sort());

  const meta = def('RequestMetaObject');
  const metaKeys = Object.keys(meta.properties as JsonObject);
  for (const key of Object.values(REQUEST_META)) assert.ok(metaKeys.includes(key), key);
  assert.deepEqual([...(meta.required as string[])].sort(), [REQUEST_META.clientCapabilities, REQUEST_META.protocolVersion].sort());

  const inputRequestMethods = (def('InputRequest').anyOf as JsonObject[]).map((branch) => methodOf(def(String(branch.$ref).split('/').pop() ?? '')));
  assert.deepEqual([...inputRequestMethods].sort(), [...INPUT_REQUEST_METHODS].sort());

  const defs = definitionsOf(schema);
  const retryable: string[] = [];
  const cacheable: string[] = [];
  for (const [name, definition] of Object.entries(defs)) {
    if (!name.endsWith('Request') || !isObject(definition)) continue;
    const method = methodOf(definition);
    const paramsRef = isObject(definition.properties) && isObject(definition.properties.params) ? definition.properties.params.$ref : undefined;
    const params = typeof paramsRef === 'string' ? defs[paramsRef.split('/').pop() ?? ''] : undefined;
    if (method !== undefined && isObject(params) && isObject(params.properties) && 'inputResponses' in params.properties) retryable.push(method);
    const result = defs[`${name.slice(0, -'Request'.length)}Result`];
    if (method !== undefined && isObject(result) && Array.isArray(result.required) && result.required.includes('ttlMs')) cacheable.push(method);
  }
  assert.deepEqual(retryable.sort(), [...INPUT_REQUIRED_METHODS].sort(), 'the requests whose params take inputResponses');
  assert.deepEqual(cacheable.sort(), [...CACHEABLE_METHODS].sort(), 'the requests whose results require ttlMs');

  const codeOf = (name: string): unknown => {
    const error = (def(name).properties as JsonObject).error as JsonObject;
    const own = (error.allOf as JsonObject[])[1] as JsonObject;
    return ((own.properties as JsonObject).code as JsonObject).const;
  };
  assert.equal(codeOf('HeaderMismatchError'), RpcCode.HeaderMismatch);
  assert.equal(codeOf('MissingRequiredClientCapabilityError'), RpcCode.MissingRequiredClientCapability);
  assert.equal(codeOf('UnsupportedProtocolVersionError'), RpcCode.UnsupportedProtocolVersion);
  assert.deepEqual(Object.keys(def('SubscriptionFilter').properties as JsonObject).sort(), ['promptsListChanged', 'resourceSubscriptions', 'resourcesListChanged', 'toolsListChanged']);
});

test('cross-check: requests the gateway builds for a modern upstream fit the schema (closed)', (t) => {
  if (schema === undefined) return t.skip(SKIP);
  const envelope = upstreamEnvelope({
    hostCapabilities: { sampling: { tools: {} }, elicitation: {}, roots: { listChanged: true }, tasks: {} },
    hostRevision: '2025-11-25',
    clientInfo: { name: 'switchboard', version: '0.1.0' },
    logLevel: 'info',
  });
  const params = withRequestEnvelope({ name: 'restart_service', arguments: { service: 'payments-api' }, _meta: { progressToken: 'p1' } }, envelope);
  assert.deepEqual(fits('CallToolRequestParams', params), []);
  assert.deepEqual(fits('CallToolRequest', { jsonrpc: '2.0', id: 1, method: 'tools/call', params }), []);
  assert.deepEqual(fits('DiscoverRequest', { jsonrpc: '2.0', id: 'd', method: 'server/discover', params: withRequestEnvelope(undefined, envelope) }), []);

  const retry = retryParams(params, { inputResponses: { confirm: { action: 'accept', content: { confirm: true } }, summary: { role: 'assistant', model: 'm', content: { type: 'text', text: 'ok' } }, roots: { roots: [{ uri: 'file:///w' }] } }, requestState: 'sb1.a.b' });
  assert.deepEqual(fits('CallToolRequestParams', retry), []);

  for (const revision of ['2024-11-05', '2025-06-18', '2025-11-25', '2026-07-28']) {
    const everything = { sampling: { tools: {}, context: {} }, elicitation: { form: {}, url: {} }, roots: { listChanged: true }, tasks: { list: {} }, experimental: {} };
    assert.deepEqual(fits('ClientCapabilities', modernClientCapabilities(everything, revision)), [], revision);
  }
  // Not vacuous: the legacy form (roots.listChanged) and an envelope without capabilities are refused.
  assert.notDeepEqual(fits('ClientCapabilities', upstreamClientCapabilities({ roots: { listChanged: true } }, '2025-11-25')), []);
  assert.notDeepEqual(fits('RequestMetaObject', { [REQUEST_META.protocolVersion]: MODERN_REVISION }), []);
  assert.notDeepEqual(fits('CallToolRequestParams', { name: 'x' }), []);
  assert.notDeepEqual(fits('CallToolRequestParams', { ...params, task: { ttl: 1 } }), [], 'not vacuous: a 2025-11-25 field is not defined');
});

test('cross-check: input_required, errors and listen messages the gateway builds fit the schema', (t) => {
  if (schema === undefined) return t.skip(SKIP);
  const result = inputRequiredResult({
    inputRequests: {
      confirm: { method: 'elicitation/create', params: ELICIT_FORM },
      login: { method: 'elicitation/create', params: { mode: 'url', message: 'Sign in', url: 'https://idp.example/auth' } },
      summary: { method: 'sampling/createMessage', params: { maxTokens: 100, messages: [{ role: 'user', content: { type: 'text', text: 'Summarise' } }] } },
      roots: { method: 'roots/list' },
    },
    requestState: 'sb1.payload.mac',
  });
  assert.deepEqual(fits('InputRequiredResult', result), []);
  assert.deepEqual(fits('CallToolResultResponse', { jsonrpc: '2.0', id: 3, result }), []);
  assert.notDeepEqual(fits('InputRequiredResult', { ...result, inputRequests: { p: { method: 'ping', params: {} } } }), [], 'not vacuous: only the three kinds');
  assert.notDeepEqual(fits('InputRequiredResult', { ...result, inputRequests: { e: { method: 'elicitation/create', params: { mode: 'form' } } } }), [], 'not vacuous: embedded params are checked');

  const response = (error: unknown): unknown => ({ jsonrpc: '2.0', id: 9, error });
  assert.deepEqual(fits('HeaderMismatchError', response(headerMismatchError('mcp-name', 'Mcp-Name must equal params.name')), false), []);
  assert.deepEqual(fits('MissingRequiredClientCapabilityError', response(missingCapabilityError({ elicitation: { url: {} } })), false), []);
  assert.deepEqual(fits('UnsupportedProtocolVersionError', response(unsupportedVersionError('2030-01-01', SUPPORTED_REVISIONS)), false), []);
  assert.notDeepEqual(fits('UnsupportedProtocolVersionError', response(headerMismatchError('x', 'y')), false), [], 'not vacuous');

  assert.deepEqual(fits('SubscriptionsAcknowledgedNotification', subscriptionsAcknowledged('L1', { toolsListChanged: true, resourceSubscriptions: ['file:///a'] })), []);
  assert.deepEqual(fits('ToolListChangedNotification', onListenStream({ method: 'notifications/tools/list_changed' }, 'L1')), []);
  assert.deepEqual(fits('ResourceUpdatedNotification', onListenStream({ method: 'notifications/resources/updated', params: { uri: 'file:///a' } }, 'L1')), []);
  assert.deepEqual(fits('SubscriptionsListenResult', listenEndResult('L1')), []);
  assert.deepEqual(fits('ListToolsResult', withCacheHints(withCompleteResultType({ tools: [] }), { ttlMs: 0, cacheScope: 'private' })), []);
  assert.notDeepEqual(fits('ListToolsResult', withCompleteResultType({ tools: [] })), [], 'not vacuous: hints are required');
});
