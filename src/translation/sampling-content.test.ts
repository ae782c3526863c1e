/** @module Tests of sampling content fitting per revision. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fitSamplingContent, fitSamplingRequest, fitSamplingResult } from './sampling-content.js';

const text = { type: 'text', text: 'hi' };
const audio = { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' };
const toolUse = { type: 'tool_use', id: 't1', name: 'x', input: {} };

test('content blocks per revision: collapse a single-block array for older peers, refuse what they cannot hold', () => {
  const cases: [unknown, string, unknown][] = [
    [text, '2024-11-05', text],
    [[text], '2025-06-18', text],
    [[text], '2025-11-25', [text]],
    [[text, text], '2025-06-18', 'refused'],
    [[text, text], '2025-11-25', [text, text]],
    [audio, '2024-11-05', 'refused'],
    [audio, '2025-03-26', audio],
    [[toolUse], '2025-06-18', 'refused'],
    [[toolUse], '2025-11-25', [toolUse]],
    [{ type: 'mystery' }, '2025-11-25', 'refused'],
  ];
  for (const [content, revision, expected] of cases) {
    const fitted = fitSamplingContent(content, revision);
    assert.deepEqual(fitted.ok ? fitted.content : 'refused', expected, `${JSON.stringify(content)} for ${revision}`);
  }
});

test('a sampling request keeps messages that fit and refuses with a reason otherwise', () => {
  const params = { maxTokens: 5, messages: [{ role: 'user', content: [text] }] };
  assert.deepEqual(fitSamplingRequest(params, '2025-06-18'), { ok: true, params: { maxTokens: 5, messages: [{ role: 'user', content: text }] } });
  const refused = fitSamplingRequest({ maxTokens: 5, messages: [{ role: 'user', content: audio }] }, '2024-11-05');
  assert.equal(refused.ok, false);
  assert.match(refused.ok ? '' : refused.reason, /audio content block/);
});

test('a 2025-11-25 host result with array content is collapsed for an older upstream when it is one block', () => {
  const result = { role: 'assistant', model: 'm', content: [text] };
  assert.deepEqual(fitSamplingResult(result, '2025-06-18'), { ok: true, result: { role: 'assistant', model: 'm', content: text } });
  assert.equal(fitSamplingResult({ ...result, content: [text, text] }, '2025-06-18').ok, false);
  assert.deepEqual(fitSamplingResult(result, '2025-11-25'), { ok: true, result });
});
