/** @module `switchboard check` output: per upstream its transport, revision, capabilities and counts, or the reason it failed. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { formatCheckReport } from './format-check.js';

describe('formatCheckReport', () => {
  it('prints what each upstream offers and why others failed', () => {
    const text = formatCheckReport([
      {
        name: 'desk',
        transport: 'stdio',
        state: 'up',
        protocolVersion: '2025-11-25',
        serverInfo: { name: 'incident-desk', version: '0.1.0' },
        capabilities: { tools: { listChanged: true }, prompts: {}, logging: {} },
        counts: { tools: 1, resources: 8, resourceTemplates: 2, prompts: 0 },
      },
      { name: 'web', transport: 'streamable-http', state: 'down', error: 'connect ECONNREFUSED 127.0.0.1:9' },
    ]);
    assert.equal(
      text,
      [
        'desk (stdio): ok',
        '  revision:     2025-11-25',
        '  server:       incident-desk 0.1.0',
        '  capabilities: logging, prompts, tools',
        '  offers:       1 tool, 8 resources, 2 resource templates, 0 prompts',
        'web (streamable-http): FAILED',
        '  reason:       connect ECONNREFUSED 127.0.0.1:9',
        '1 of 2 upstreams failed.',
        '',
      ].join('\n'),
    );
  });

  it('says when everything is fine, and when an upstream offers no capabilities', () => {
    const text = formatCheckReport([{ name: 'a', transport: 'sse', state: 'up', protocolVersion: '2024-11-05', capabilities: {} }]);
    assert.match(text, /capabilities: \(none\)/);
    assert.match(text, /All 1 upstream OK\.\n$/);
  });
});

describe('formatCheckReport: eras', () => {
  it('names the era of each upstream beside its revision', () => {
    const text = formatCheckReport([
      { name: 'desk', transport: 'stdio', state: 'up', era: 'modern', protocolVersion: '2026-07-28', capabilities: { tools: {} } },
      { name: 'old', transport: 'sse', state: 'up', era: 'legacy', protocolVersion: '2024-11-05', capabilities: {} },
    ]);
    assert.match(text, /desk \(stdio\): ok\n {2}era: {10}modern \(stateless, no initialize\)\n {2}revision: {5}2026-07-28\n/);
    assert.match(text, /old \(sse\): ok\n {2}era: {10}legacy \(initialize, sessions\)\n {2}revision: {5}2024-11-05\n/);
  });
});

describe('formatCheckReport: the store', () => {
  const up = [{ name: 'a', transport: 'sse' as const, state: 'up' as const, protocolVersion: '2024-11-05', capabilities: {} }];

  it('shows a PostgreSQL store after the upstreams: where, the server, the schema version', () => {
    const text = formatCheckReport(up, {
      type: 'postgres',
      where: 'postgres://gw@db:5432/sb, schema public',
      state: 'ok',
      serverVersion: '15.18',
      schemaVersion: 1,
      latestSchemaVersion: 1,
    });
    assert.match(
      text,
      /\nstore \(postgres\): ok\n {2}database: {5}postgres:\/\/gw@db:5432\/sb, schema public\n {2}server: {7}PostgreSQL 15\.18\n {2}schema: {7}version 1\nAll 1 upstream OK\.\n$/,
    );
  });

  it('lists the instances of a PostgreSQL store with their ages, the live ones with when they were last heard', () => {
    const store = { type: 'postgres' as const, where: 'postgres://gw@db:5432/sb, schema public', state: 'ok' as const, schemaVersion: 1, latestSchemaVersion: 1 };
    const instances = [
      { id: 'gw-b', state: 'up' as const, ageSeconds: 185, silentSeconds: 2, advertise: 'http://10.0.0.12:8080' },
      { id: 'gw-a', state: 'dead' as const, ageSeconds: 7500, silentSeconds: 7000 },
    ];
    assert.match(formatCheckReport(up, { ...store, instances }), /\n {2}instances: {4}gw-b: up, joined 3m 5s ago, heard 2s ago, reached at http:\/\/10\.0\.0\.12:8080\n {16}gw-a: dead, joined 2h 5m ago\n/);
    assert.match(formatCheckReport(up, { ...store, instances: [] }), /\n {2}instances: {4}none has joined yet\n/);
  });

  it('says when the schema is still to be created or upgraded, and keeps memory short', () => {
    assert.match(formatCheckReport(up, { type: 'sqlite', where: '/srv/data/switchboard.db', state: 'ok', latestSchemaVersion: 2 }), /schema: {7}not created yet \(serve creates version 2\)\n/);
    assert.match(formatCheckReport(up, { type: 'sqlite', where: '/f.db', state: 'ok', schemaVersion: 1, latestSchemaVersion: 2 }), /schema: {7}version 1 \(serve upgrades it to 2\)\n/);
    assert.match(formatCheckReport(up, { type: 'memory', state: 'ok' }), /store \(memory\): ok\n {2}kept: {9}nothing: questions and runs are lost when the gateway stops\n/);
  });

  it('a store that failed says why and is counted in the summary', () => {
    const text = formatCheckReport(up, { type: 'postgres', where: 'postgres://gw@db/sb, schema public', state: 'failed', error: 'cannot connect: connection refused' });
    assert.match(text, /store \(postgres\): FAILED\n {2}database: {5}postgres:\/\/gw@db\/sb, schema public\n {2}reason: {7}cannot connect: connection refused\nAll 1 upstream OK\. The store failed\.\n$/);
  });
});
