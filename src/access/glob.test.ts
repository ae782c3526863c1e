import assert from 'node:assert/strict';
import { test } from 'node:test';

import { anyGlob, globMatch } from './glob.js';

test('globs match whole names, * any run, ? one character, the rest literal', () => {
  assert.equal(globMatch('desk_*', 'desk_restart_service'), true);
  assert.equal(globMatch('*restart_service', 'desk_restart_service'), true);
  assert.equal(globMatch('*restart_service', 'desk_restart_service_now'), false);
  assert.equal(globMatch('desk_?', 'desk_a'), true);
  assert.equal(globMatch('desk_?', 'desk_ab'), false);
  assert.equal(globMatch('a.b', 'axb'), false, 'a dot is literal');
  assert.equal(globMatch('(x)+[y]', '(x)+[y]'), true, 'regex characters are literal');
  assert.equal(globMatch('Desk_*', 'desk_x'), false, 'case-sensitive');
  assert.equal(globMatch('*', 'line\nbreak'), true);
  assert.equal(anyGlob(['a*', 'b*'], 'bee'), true);
  assert.equal(anyGlob([], 'bee'), false);
});
