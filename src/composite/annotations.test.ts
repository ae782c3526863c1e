import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compositeAnnotations } from './annotations.js';

const readOnly = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };

test('read-only only when every called tool is read-only', () => {
  assert.deepEqual(compositeAnnotations([readOnly, readOnly]), { readOnlyHint: true, idempotentHint: true, openWorldHint: false });
  assert.equal(compositeAnnotations([readOnly, { readOnlyHint: false, destructiveHint: false }]).readOnlyHint, false);
  assert.equal(compositeAnnotations([readOnly, undefined]).readOnlyHint, false);
  assert.equal(compositeAnnotations([readOnly, {}]).readOnlyHint, false);
});

test('destructive when any non-read-only tool does not say destructiveHint false (the MCP default)', () => {
  assert.equal(compositeAnnotations([readOnly, { readOnlyHint: false }]).destructiveHint, true);
  assert.equal(compositeAnnotations([readOnly, undefined]).destructiveHint, true);
  assert.equal(compositeAnnotations([{ readOnlyHint: false, destructiveHint: false }, readOnly]).destructiveHint, false);
  assert.equal(compositeAnnotations([{ destructiveHint: false }, { readOnlyHint: false, destructiveHint: true }]).destructiveHint, true);
  // a read-only tool saying destructiveHint true is ignored, as the spec says
  assert.equal(compositeAnnotations([{ readOnlyHint: true, destructiveHint: true }, { destructiveHint: false }]).destructiveHint, false);
});

test('idempotent only when all are; open world unless all say closed', () => {
  assert.equal(compositeAnnotations([readOnly, { ...readOnly, idempotentHint: false }]).idempotentHint, false);
  assert.equal(compositeAnnotations([readOnly, { readOnlyHint: true }]).idempotentHint, false);
  assert.equal(compositeAnnotations([readOnly, { readOnlyHint: true }]).openWorldHint, true);
  assert.equal(compositeAnnotations([readOnly, { ...readOnly, openWorldHint: true }]).openWorldHint, true);
  assert.equal(compositeAnnotations([readOnly, readOnly]).openWorldHint, false);
});

test('an unannotated tool makes the composite as unsafe as the defaults', () => {
  assert.deepEqual(compositeAnnotations([undefined]), { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
});

test('a composite that calls nothing (questions only) is read-only and closed', () => {
  assert.deepEqual(compositeAnnotations([]), { readOnlyHint: true, idempotentHint: true, openWorldHint: false });
});
