/** @module Tests of `checkUpstreams`: a failed upstream's reason is reported with the credentials of any URL in it redacted. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { checkUpstreams } from './check.js';
import { silentLogger } from '../core/log.js';
import { config, spec } from '../app/testing/gateway-doubles.js';

test('a failed upstream is reported down, its reason without the user, password or query values of its URL', async () => {
  const [report] = await checkUpstreams(config([spec('vault')]), {
    logger: silentLogger,
    openTransport: () => {
      throw new Error("upstream 'vault' (https://alice:pw@vault.example/mcp?api_key=K3Y): fetch failed");
    },
  });
  assert.equal(report?.state, 'down');
  assert.equal(report?.error, "upstream 'vault' (https://***@vault.example/mcp?api_key=***): fetch failed");
});
