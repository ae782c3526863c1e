/** @module Tests of the values a parsed config holds: defaults, paths resolved against the config folder, ${VAR} expansion and listen forms. */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseConfigText } from './load.js';
import { yaml } from './testing/config-text.js';

describe('parseConfigText: values', () => {
  test('relative cwd is resolved against the config folder, not the working directory', () => {
    const config = parseConfigText(yaml('upstreams:', '  desk: { command: node, cwd: ../tools }'), '/srv/switchboard/conf/sb.yaml', { env: {} });
    assert.equal(config.source, '/srv/switchboard/conf/sb.yaml');
    const [desk] = config.upstreams;
    assert.equal(desk?.kind, 'stdio');
    assert.equal(desk.kind === 'stdio' ? desk.cwd : undefined, '/srv/switchboard/tools');
  });

  test('args are not resolved, and ${VAR} is not expanded outside env, headers, args and url', () => {
    const config = parseConfigText(
      yaml('upstreams:', '  desk:', '    command: ${TOOL}', '    args: [./x.js, "${TOOL}"]', '    cwd: ${TOOL}'),
      '/cfg/sb.yaml',
      { env: { TOOL: 'node' } },
    );
    const [desk] = config.upstreams;
    assert.ok(desk?.kind === 'stdio');
    assert.equal(desk.command, '${TOOL}');
    assert.deepEqual(desk.args, ['./x.js', 'node']);
    assert.equal(desk.cwd, '/cfg/${TOOL}');
  });

  test('${VAR} reads process.env by default', () => {
    const key = 'SWITCHBOARD_CONFIG_TEST_HOST';
    process.env[key] = '127.0.0.1:4555';
    try {
      const config = parseConfigText(yaml('upstreams:', `  remote: { url: "http://\${${key}}/mcp" }`), 'sb.yaml');
      assert.equal(config.upstreams[0]?.kind === 'streamable-http' ? config.upstreams[0].url : undefined, 'http://127.0.0.1:4555/mcp');
    } finally {
      delete process.env[key];
    }
  });

  test('listen accepts :PORT and a quoted [IPv6]:PORT as plain YAML scalars', () => {
    const listenOf = (line: string) => parseConfigText(yaml(line, 'upstreams:', '  desk: { command: node }'), '/cfg/sb.yaml', { env: {} }).listen;
    assert.deepEqual(listenOf('listen: :4000'), { host: '127.0.0.1', port: 4000 });
    assert.deepEqual(listenOf('listen: "[::1]:4000"'), { host: '::1', port: 4000 });
    assert.deepEqual(listenOf('listen: 0.0.0.0:0'), { host: '0.0.0.0', port: 0 });
  });

  test('defaults fill every optional key', () => {
    const config = parseConfigText(yaml('upstreams:', '  remote: { url: "https://mcp.example.test/mcp" }'), '/cfg/sb.yaml', { env: {} });
    assert.deepEqual(config, {
      source: '/cfg/sb.yaml',
      listen: { host: '127.0.0.1', port: 3939 },
      upstreams: [
        {
          kind: 'streamable-http',
          name: 'remote',
          sharing: 'per-session',
          lists: 'shared',
          tools: { deny: [], rename: {} },
          requestTimeoutMs: 300_000,
          connectTimeoutMs: 30_000,
          era: 'auto',
          inputRequired: { maxRounds: 8, deadlineMs: 300_000 },
          url: 'https://mcp.example.test/mcp',
          headers: {},
        },
      ],
      naming: { strategy: 'prefix-on-conflict', separator: '_' },
      http: {
        allowedHosts: [],
        allowedOrigins: [],
        maxBodyBytes: 4 * 1024 * 1024,
        sessionIdleTimeoutMs: 30 * 60_000,
        maxJsonDepth: 64,
        maxSessions: 10_000,
        maxSessionsPerPrincipal: 1_000,
        maxStandIns: 256,
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 60_000,
        maxConnections: 10_000,
      },
      pageSize: 100,
      retry: { initialDelayMs: 1000, maxDelayMs: 60_000 },
      questions: { approvers: {}, route: 'host-then-operator', timeoutMs: 300_000, sampling: 'host', consent: 'host' },
      console: { enabled: true },
      auth: { hosts: { kind: 'none' }, operators: { token: 'everywhere' } },
      policy: { default: 'allow', rules: [], answerers: [] },
      store: { kind: 'sqlite', path: '/cfg/data/switchboard.db' },
      cluster: { deadAfterMs: 15_000, drainTimeoutMs: 10_000 },
      requestState: {},
      log: { format: 'text' },
      tracing: {},
      composites: [],
      notify: [],
    });
  });

  test('question routing per upstream and per tool, the console token from ${VAR}, a memory store', () => {
    const config = parseConfigText(
      yaml(
        'questions: { route: both, timeout: 2m }',
        'console: { token: "${OPERATOR_TOKEN}" }',
        'store: { type: memory }',
        'upstreams:',
        '  desk:',
        '    command: node',
        '    questions: { route: host, tools: { restart_service: { route: operator, timeout: 30s } } }',
      ),
      '/cfg/sb.yaml',
      { env: { OPERATOR_TOKEN: 'a-long-operator-token' } },
    );
    assert.deepEqual(config.questions, { approvers: {}, route: 'both', timeoutMs: 120_000, sampling: 'host', consent: 'host' });
    assert.deepEqual(config.console, { enabled: true, token: 'a-long-operator-token' });
    assert.deepEqual(config.store, { kind: 'memory' });
    assert.deepEqual(config.upstreams[0]?.questions, { route: 'host', tools: { restart_service: { route: 'operator', timeoutMs: 30_000 } } });
    assert.throws(() => parseConfigText(yaml('console: { token: short }', 'upstreams:', '  d: { command: node }'), '/cfg/sb.yaml', { env: {} }), /console\.token: must be at least 16/);
    assert.throws(() => parseConfigText(yaml('questions: { route: maybe }', 'upstreams:', '  d: { command: node }'), '/cfg/sb.yaml', { env: {} }), /questions\.route/);
  });

  test('parsed configs do not share default lists', () => {
    const text = yaml('upstreams:', '  desk: { command: node }');
    const first = parseConfigText(text, '/cfg/a.yaml', { env: {} });
    first.http.allowedHosts.push('mutated');
    first.upstreams[0]?.tools.deny.push('mutated');
    const second = parseConfigText(text, '/cfg/b.yaml', { env: {} });
    assert.deepEqual(second.http.allowedHosts, []);
    assert.deepEqual(second.upstreams[0]?.tools.deny, []);
  });
});

