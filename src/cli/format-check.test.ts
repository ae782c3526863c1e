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
