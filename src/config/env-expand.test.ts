/** @module Tests of ${VAR} expansion. */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { expandConfigVariables, expandVariables } from './env-expand.js';

const ENV = { HOST: 'example.test', TOKEN: 's3cret', EMPTY: '' };

describe('expandVariables', () => {
  const good: [string, string][] = [
    ['plain', 'plain'],
    ['${HOST}', 'example.test'],
    ['https://${HOST}/mcp?t=${TOKEN}', 'https://example.test/mcp?t=s3cret'],
    ['[${EMPTY}]', '[]'],
    ['$HOST and $ alone stay', '$HOST and $ alone stay'],
    ['$${HOST}', '${HOST}'],
    ['$$${HOST}', '$${HOST}'], // read left to right: "$", then the escape "$${"
    ['cost: $$5', 'cost: $$5'],
  ];
  for (const [input, output] of good) {
    test(`${JSON.stringify(input)} -> ${JSON.stringify(output)}`, () => assert.equal(expandVariables(input, ENV), output));
  }

  const bad: [string, string][] = [
    ['${MISSING}', 'uses environment variable MISSING, which is not set'],
    ['${}', 'has a bad variable reference "${}" (expected ${NAME}, NAME of letters, digits and _)'],
    ['${1X}', 'has a bad variable reference "${1X}" (expected ${NAME}, NAME of letters, digits and _)'],
    ['${HOST:-x}', 'has a bad variable reference "${HOST:-x}" (expected ${NAME}, NAME of letters, digits and _)'],
    ['abc ${HOST', 'has an unclosed "${" (write $${ for a literal "${")'],
  ];
  for (const [input, message] of bad) {
    test(`${JSON.stringify(input)} is rejected`, () => assert.throws(() => expandVariables(input, ENV), { message }));
  }
});

describe('expandConfigVariables', () => {
  test('expands url, args, env and headers of every upstream, in place', () => {
    const raw = {
      listen: '${HOST}:1',
      upstreams: {
        a: { command: '${HOST}', args: ['--h=${HOST}', 7], env: { T: '${TOKEN}' }, cwd: '${HOST}' },
        b: { url: 'http://${HOST}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
      },
    };
    assert.deepEqual(expandConfigVariables(raw, ENV), []);
    assert.deepEqual(raw, {
      listen: '${HOST}:1',
      upstreams: {
        a: { command: '${HOST}', args: ['--h=example.test', 7], env: { T: 's3cret' }, cwd: '${HOST}' },
        b: { url: 'http://example.test/mcp', headers: { Authorization: 'Bearer s3cret' } },
      },
    });
  });

  test('expands the strings of an auth block, except its type', () => {
    const raw = {
      upstreams: { b: { url: 'http://h/mcp', auth: { type: '${HOST}', clientId: 'id-${HOST}', clientSecret: '${TOKEN}', scope: 'a b', redirectUrl: 'http://${HOST}/cb' } } },
    };
    assert.deepEqual(expandConfigVariables(raw, ENV), []);
    assert.deepEqual(raw.upstreams.b.auth, { type: '${HOST}', clientId: 'id-example.test', clientSecret: 's3cret', scope: 'a b', redirectUrl: 'http://example.test/cb' });
    const missing = { upstreams: { b: { url: 'http://h/mcp', auth: { type: 'oauth', clientSecret: '${NOPE}' } } } };
    assert.deepEqual(expandConfigVariables(missing, ENV), [{ path: ['upstreams', 'b', 'auth', 'clientSecret'], message: 'uses environment variable NOPE, which is not set' }]);
  });

  test('reports every failure with its path and leaves the value as it was', () => {
    const raw = { upstreams: { a: { args: ['${X}'], env: { K: '${Y}' } }, b: { url: '${Z}' } } };
    assert.deepEqual(expandConfigVariables(raw, ENV), [
      { path: ['upstreams', 'a', 'args', 0], message: 'uses environment variable X, which is not set' },
      { path: ['upstreams', 'a', 'env', 'K'], message: 'uses environment variable Y, which is not set' },
      { path: ['upstreams', 'b', 'url'], message: 'uses environment variable Z, which is not set' },
    ]);
    assert.equal(raw.upstreams.b.url, '${Z}');
  });

  test('ignores shapes the schema will reject anyway', () => {
    for (const raw of [null, 'text', { upstreams: [] }, { upstreams: { a: null, b: { args: 'x', env: ['${X}'] } } }]) {
      assert.deepEqual(expandConfigVariables(raw, ENV), []);
    }
  });
});
