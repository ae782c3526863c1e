/** @module Every local error class is a LocalError with its own code, keeps its class, name and message, and the codes match docs/errors.md. */

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { CliError, UsageError } from '../cli/cli-io.js';
import { ConnectError } from '../cli/connect-error.js';
import { McpHttpError } from '../cli/mcp-host/http-mcp-client.js';
import { OperatorApiError, UnexpectedAnswerError } from '../cli/operator-client.js';
import { ConfigError } from '../config/config-error.js';
import { RunStoreError } from '../composite/run-store.js';
import { TemplateError } from '../composite/template/ast.js';
import { QuestionStoreError } from '../store/store-error.js';
import { RegistrationError } from '../upstream/transport/oauth/client-registration.js';
import { DiscoveryError } from '../upstream/transport/oauth/discovery.js';
import { HeadlessAuthorizationError } from '../upstream/transport/oauth/headless-authorization.js';
import { TransportError } from '../upstream/transport/transport.js';
import { UpstreamAuthError } from '../upstream/transport/upstream-auth-error.js';
import { LocalError } from '../core/errors/local.js';

const cause = new Error('root');

/** One instance of each exported local error class, with the code, name and message it must have. */
const CASES: [error: Error, code: string, name: string, message: string][] = [
  [new ConfigError({ file: 'sb.yaml', line: 3, path: 'upstreams.a', reason: 'bad\nvalue' }), 'config-invalid', 'ConfigError', 'sb.yaml:3: upstreams.a: bad value'],
  [new UsageError('call: unknown option --x'), 'cli-usage', 'UsageError', 'call: unknown option --x'],
  [new CliError('no such tool'), 'cli-failed', 'CliError', 'no such tool'],
  [new McpHttpError(404, 'HTTP 404'), 'mcp-http-status', 'McpHttpError', 'HTTP 404'],
  [new ConnectError('cannot reach http://h/mcp: ECONNREFUSED'), 'gateway-unreachable', 'ConnectError', 'cannot reach http://h/mcp: ECONNREFUSED'],
  [new OperatorApiError(409, 'settled', { code: 'ALREADY_SETTLED' }), 'operator-api-refused', 'OperatorApiError', 'settled'],
  [new UnexpectedAnswerError('not a question list'), 'operator-api-unexpected', 'UnexpectedAnswerError', 'not a question list'],
  [new TemplateError('unknown reference steps.x'), 'template-invalid', 'TemplateError', 'unknown reference steps.x'],
  [new RunStoreError('unknown-run', 'no run r-1', { runId: 'r-1' }), 'unknown-run', 'RunStoreError', 'no run r-1'],
  [new QuestionStoreError('duplicate', 'question q-1 exists', { questionId: 'q-1' }), 'duplicate', 'QuestionStoreError', 'question q-1 exists'],
  [new RegistrationError('no registration endpoint', { cause }), 'oauth-registration', 'RegistrationError', 'no registration endpoint'],
  [new DiscoveryError('no metadata', { cause }), 'oauth-discovery', 'DiscoveryError', 'no metadata'],
  [new HeadlessAuthorizationError('sign in', { needsPerson: true, authorizationUrl: 'https://as/authorize' }), 'oauth-headless-authorization', 'HeadlessAuthorizationError', 'sign in'],
  [new TransportError('HTTP 502', { status: 502, cause }), 'transport-failed', 'TransportError', 'HTTP 502'],
  [new UpstreamAuthError('failed', 'token endpoint refused', { cause }), 'upstream-auth', 'UpstreamAuthError', 'token endpoint refused'],
];

test('each local error is a LocalError and an Error, with its code, its own name and its message unchanged', () => {
  for (const [error, code, name, message] of CASES) {
    assert.ok(error instanceof LocalError, name);
    assert.ok(error instanceof Error, name);
    assert.equal((error as LocalError).code, code, name);
    assert.equal(error.name, name);
    assert.equal(error.message, message, name);
  }
});

test('a cause given to a local error is kept', () => {
  for (const [error, , name] of CASES.filter(([, , n]) => ['RegistrationError', 'DiscoveryError', 'TransportError', 'UpstreamAuthError'].includes(n))) {
    assert.equal(error.cause, cause, name);
  }
});

test('the operator API keeps its own code apart from the local one', () => {
  const refused = new OperatorApiError(400, 'field "x": required', { code: 'INVALID_ANSWER', field: 'x' });
  assert.equal(refused.apiCode, 'INVALID_ANSWER');
  assert.equal(refused.code, 'operator-api-refused');
  assert.equal(new OperatorApiError(404, 'HTTP 404 without an operator API error body').apiCode, undefined);
});

test('docs/errors.md lists each local error class with its code', () => {
  const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('## Local errors'));
  const rows = new Map([...section.matchAll(/^\| `(\w+)` \| ([^|]+) \|/gm)].map((m) => [m[1], m[2] ?? '']));
  for (const [error, code, name] of CASES) {
    assert.ok(error instanceof LocalError);
    assert.ok(rows.get(name)?.includes(`\`${code}\``), `${name} is listed with \`${code}\``);
  }
  assert.ok(rows.has('Unsendable'), 'the internal one too');
});
