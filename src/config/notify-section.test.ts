/** @module Tests of the `notify` section: webhook targets with their defaults, `${VAR}` expanded in url, headers and secret, and what is refused. */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseConfigText } from './load.js';
import { assertConfigError } from './testing/assert-config-error.js';
import { yaml } from './testing/config-text.js';

const UPSTREAMS = ['upstreams:', '  desk: { command: node }'];

describe('the notify section', () => {
  test('absent: no targets', () => {
    const config = parseConfigText(yaml(...UPSTREAMS), '/cfg/sb.yaml', { env: {} });
    assert.deepEqual(config.notify, []);
  });

  test('a target with only a url gets every default, named after its host', () => {
    const config = parseConfigText(yaml(...UPSTREAMS, 'notify:', '  - url: https://hooks.example.com/in/abc'), '/cfg/sb.yaml', { env: {} });
    assert.deepEqual(config.notify, [
      {
        name: 'hooks.example.com',
        url: 'https://hooks.example.com/in/abc',
        format: 'json',
        headers: {},
        events: ['question.waiting', 'question.answered', 'question.expired'],
        timeoutMs: 10_000,
        attempts: 5,
      },
    ]);
  });

  test('every key given; ${VAR} expanded in url, header values and secret', () => {
    const config = parseConfigText(
      yaml(
        ...UPSTREAMS,
        'notify:',
        '  - name: pager',
        '    url: https://hooks.slack.com/services/${SLACK_PATH}',
        '    format: slack',
        '    headers: { Authorization: "Bearer ${HOOK_TOKEN}" }',
        '    secret: ${HOOK_SECRET}',
        '    events: [question.waiting, question.abandoned]',
        '    upstreams: [desk, "ops-*"]',
        '    tools: ["*restart*"]',
        '    timeout: 3s',
        '    attempts: 2',
      ),
      '/cfg/sb.yaml',
      { env: { SLACK_PATH: 'T1/B2/xyz', HOOK_TOKEN: 'tok', HOOK_SECRET: 'a-secret-of-enough-length' } },
    );
    assert.deepEqual(config.notify, [
      {
        name: 'pager',
        url: 'https://hooks.slack.com/services/T1/B2/xyz',
        format: 'slack',
        headers: { Authorization: 'Bearer tok' },
        secret: 'a-secret-of-enough-length',
        events: ['question.waiting', 'question.abandoned'],
        upstreams: ['desk', 'ops-*'],
        tools: ['*restart*'],
        timeoutMs: 3_000,
        attempts: 2,
      },
    ]);
  });

  test('two unnamed targets on one host are told apart by a number', () => {
    const config = parseConfigText(yaml(...UPSTREAMS, 'notify:', '  - url: http://127.0.0.1:9000/a', '  - url: http://127.0.0.1:9000/b', '  - { name: "127.0.0.1-2", url: http://x.test/ }'), '/cfg/sb.yaml', { env: {} });
    assert.deepEqual(config.notify.map((target) => target.name), ['127.0.0.1', '127.0.0.1-3', '127.0.0.1-2']);
  });

  test('a short secret is refused without being quoted', () => {
    assertConfigError(
      () => parseConfigText(yaml(...UPSTREAMS, 'notify:', '  - { url: "http://x.test/", secret: "${S}" }'), 'bad.yaml', { env: { S: 'hunter2-secret' } }),
      'bad.yaml:4: notify[0].secret: must be at least 16 characters',
    );
  });

  test('refused: a url that is not http(s), an unknown event or format, a short secret, a reserved header, a repeated name', () => {
    const bad = (lines: string[], message: string, env: Record<string, string> = {}) =>
      assertConfigError(() => parseConfigText(yaml(...UPSTREAMS, 'notify:', ...lines), 'bad.yaml', { env }), message);
    bad(['  - url: ftp://example.com/hook'], 'bad.yaml:4: notify[0].url: must be an http:// or https:// URL without a fragment');
    bad(['  - { url: "http://x.test/", events: [question.created] }'], 'bad.yaml:4: notify[0].events[0]: must be one of question.waiting, question.answered, question.expired, question.abandoned (got "question.created")');
    bad(['  - { url: "http://x.test/", format: teams }'], 'bad.yaml:4: notify[0].format: must be one of json, slack (got "teams")');
    bad(['  - { url: "http://x.test/", secret: short-secret }'], 'bad.yaml:4: notify[0].secret: must be at least 16 characters', {});
    bad(['  - url: http://x.test/', '    headers: { X-Switchboard-Signature: forged }'], 'bad.yaml:5: notify[0].headers.X-Switchboard-Signature: is set by the gateway (X-Switchboard-*, Content-Type, Content-Length, Host)');
    bad(['  - { name: a, url: "http://x.test/" }', '  - { name: a, url: "http://y.test/" }'], 'bad.yaml:5: notify[1].name: another target is named a already');
    bad(['  - { url: "http://x.test/", events: [] }'], 'bad.yaml:4: notify[0].events: must have at least 1 entries');
    bad(['  - url: http://x.test/${MISSING}'], 'bad.yaml:4: notify[0].url: uses environment variable MISSING, which is not set');
  });
});
