/** @module Tests of the `cluster` section's link: `advertise` and `secret` (`${VAR}` expanded, or SWITCHBOARD_CLUSTER_SECRET), and what they need of the rest of the file. */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseConfigText } from './load.js';
import { assertConfigError } from './testing/assert-config-error.js';
import { yaml } from './testing/config-text.js';

const UPSTREAMS = ['upstreams:', '  desk: { command: node }'];
const KEY = 'requestState: { keys: [qxpwQ/6Gg9W6qLR/xFliKZJ/3x7v+yoNWl1wpEW+HiY=] }';
const STORE = 'store: { type: postgres, url: "postgres://gw@db/sb" }';
const SECRET = 'x'.repeat(32);

describe('the cluster link', () => {
  test('id, advertise and secret (${VAR} expanded, one file for every instance): the link, its URL without a trailing slash', () => {
    const text = yaml(...UPSTREAMS, STORE, KEY, 'cluster:', '  id: ${INSTANCE}', '  advertise: http://${INSTANCE}.internal:8080/', '  secret: ${CLUSTER_SECRET}');
    const config = parseConfigText(text, '/cfg/sb.yaml', { env: { CLUSTER_SECRET: SECRET, INSTANCE: 'gw-2' } });
    assert.equal(config.cluster.id, 'gw-2');
    assert.deepEqual(config.cluster.link, { advertise: 'http://gw-2.internal:8080', secret: SECRET });
  });

  test('without secret in the file, SWITCHBOARD_CLUSTER_SECRET; with neither, the file is refused', () => {
    const text = yaml(...UPSTREAMS, STORE, KEY, 'cluster: { advertise: "http://10.0.0.11:8080" }');
    assert.equal(parseConfigText(text, '/cfg/sb.yaml', { env: { SWITCHBOARD_CLUSTER_SECRET: SECRET } }).cluster.link?.secret, SECRET);
    assertConfigError(() => parseConfigText(text, 'bad.yaml', { env: {} }), 'bad.yaml:5: cluster.secret: is required with advertise (or set SWITCHBOARD_CLUSTER_SECRET in the environment)');
  });

  test('no link without advertise; a short secret, a secret alone and a bad URL are refused', () => {
    assert.equal(parseConfigText(yaml(...UPSTREAMS, STORE), '/cfg/sb.yaml', { env: {} }).cluster.link, undefined);
    assertConfigError(() => parseConfigText(yaml(...UPSTREAMS, STORE, KEY, 'cluster: { advertise: "http://a:1", secret: short }'), 'bad.yaml', { env: {} }), 'bad.yaml:5: cluster.secret: must be at least 32 characters (the value is a secret: it is not shown)');
    assertConfigError(() => parseConfigText(yaml(...UPSTREAMS, STORE, KEY, `cluster: { secret: ${SECRET} }`), 'bad.yaml', { env: {} }), 'bad.yaml:5: cluster.secret: only applies with advertise');
    for (const url of ['ftp://a:1', 'http://user:pw@a:1', 'http://a:1/?x=1', 'not a url']) {
      assertConfigError(() => parseConfigText(yaml(...UPSTREAMS, STORE, KEY, `cluster: { advertise: "${url}", secret: ${SECRET} }`), 'bad.yaml', { env: {} }), `bad.yaml:5: cluster.advertise: must be an http:// or https:// URL without credentials, query or fragment`);
    }
  });

  test('advertise needs the PostgreSQL store and requestState.keys shared by every instance', () => {
    const link = `cluster: { advertise: "http://a:1", secret: ${SECRET} }`;
    assertConfigError(() => parseConfigText(yaml(...UPSTREAMS, KEY, link), 'bad.yaml', { env: {} }), 'bad.yaml:4: cluster.advertise: only applies with store.type postgres (the instances find each other there)');
    assertConfigError(() => parseConfigText(yaml(...UPSTREAMS, STORE, link), 'bad.yaml', { env: {} }), 'bad.yaml:4: cluster.advertise: needs requestState.keys: every instance signs and verifies handles with the same keys');
  });
});
