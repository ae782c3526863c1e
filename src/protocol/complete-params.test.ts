/** @module Tests of the completion/complete params check. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { completeParamsProblem } from './complete-params.js';

test('argument needs string name and value; context, if sent, maps names to strings', () => {
  assert.equal(completeParamsProblem({ argument: { name: 'id', value: 'IN' } }), undefined);
  assert.equal(completeParamsProblem({ argument: { name: 'id', value: '' }, context: { arguments: { service: 'api' } } }), undefined);
  assert.equal(completeParamsProblem({ argument: { name: 'id', value: 'IN' }, context: {} }), undefined);
  assert.equal(completeParamsProblem({}), 'argument must be an object {name, value}');
  assert.equal(completeParamsProblem({ argument: ['id', 'IN'] }), 'argument must be an object {name, value}');
  assert.equal(completeParamsProblem({ argument: { value: 'IN' } }), 'argument.name must be a string');
  assert.equal(completeParamsProblem({ argument: { name: 'id', value: 3 } }), 'argument.value must be a string');
  assert.equal(completeParamsProblem({ argument: { name: 'id', value: 'IN' }, context: null }), 'context must be an object');
  assert.equal(completeParamsProblem({ argument: { name: 'id', value: 'IN' }, context: { arguments: 'x' } }), 'context.arguments must be an object of strings');
  assert.equal(completeParamsProblem({ argument: { name: 'id', value: 'IN' }, context: { arguments: { a: 'x', b: 2 } } }), 'context.arguments.b must be a string');
});
