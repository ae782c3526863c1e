/** @module Proves each rule of .dependency-cruiser.mjs can fail: cruises a small temporary tree with one offending import per rule. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { LAYERS, globToRegex, rulesFor } from '../../.dependency-cruiser.mjs';
import { cruiseTree, REPO_ROOT, violationsOf } from './testing/cruise.js';

/** The fixture: path → source. Each offending import is named by the rule it breaks. */
const TREE: Record<string, string> = {
  'src/protocol/ok.ts': 'export const ok = 1;\n',
  'src/protocol/pure.ts': "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n", // pure-rooms-do-no-io
  'src/protocol/pure.test.ts': "import { readFileSync } from 'node:fs';\nexport const fixture = readFileSync;\n", // allowed: tests of a pure room may read files
  'src/edges/http/edge.ts': "import { Hono } from 'hono';\nimport { ok } from '../../protocol/ok.js';\nexport const app = [Hono, ok];\n",
  'src/router/up.ts': "import { app } from '../edges/http/edge.js';\nexport const up = app;\n", // layer:router
  'src/hosts/modern/nested.ts': "import { app } from '../../edges/http/edge.js';\nexport const nested = app;\n", // layer:modern hosts
  'src/router/uses-fake.ts': "import { fake } from './testing/fake.js';\nexport const used = fake;\n", // no-test-code-in-production
  'src/router/testing/fake.ts': "import { helper } from '../../cli/testing/helper.js';\nexport const fake = helper;\n", // allowed: test code of any layer
  'src/router/up.test.ts': "import { cmd } from '../cli/cmd.js';\nimport { ok } from '../protocol/ok.js';\nexport const t = [cmd, ok];\n", // layer:router:tests
  'src/router/listed.ts': 'export const listed = 1;\n',
  'src/router/other.ts': 'export const other = 1;\n',
  'src/cli/cmd.ts': "import { up } from '../router/up.js';\nexport const cmd = up;\n",
  'src/cli/testing/helper.ts': 'export const helper = 1;\n',
  'src/store/a.ts': "import type { B } from './b.js';\nexport interface A { b?: B }\n", // no-circular
  'src/store/b.ts': "import type { A } from './a.js';\nexport interface B { a?: A }\n",
  'src/store/sqlite/s.ts': 'export const s = 1;\n',
  'src/store/memory/m.ts': "import { s } from '../sqlite/s.js';\nexport const m = s;\n", // layer:memory store (a sibling room)
  'src/questions/q.ts': "import { listed } from '../router/listed.js';\nimport { other } from '../router/other.js';\nexport const q = [listed, other];\n", // the listed exception, and layer:questions
  'src/translation/t.ts': "import { Hono } from 'hono';\nexport const t = Hono;\n", // server-side-only-in-edges, pure-rooms-import-no-packages
  'src/config/c.ts': "import { Client } from '@modelcontextprotocol/client';\nexport const c = Client;\n", // sdk-client-only-in-upstream-transports
  'src/newfolder/x.ts': "import { ok } from '../protocol/ok.js';\nexport const x = ok;\n", // not-in-a-layer
  'src/bridge/b.ts': "import { gone } from './missing.js';\nexport const b = gone;\n", // not-to-unresolvable
};

const root = mkdtempSync(join(tmpdir(), 'depcruise-fixture-'));
after(() => rmSync(root, { recursive: true, force: true }));
for (const [path, text] of Object.entries(TREE)) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}
symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
/** The fixture's own exception (the live list changes as exceptions are removed). */
const FIXTURE_EXCEPTIONS = [{ from: 'src/questions/q.ts', to: ['src/router/listed.ts'], why: 'the fixture\'s listed exception', removedBy: 'never' }];
const result = await cruiseTree(root, rulesFor(LAYERS, FIXTURE_EXCEPTIONS), false);

test('each offending import of the fixture breaks its rule, and nothing else is reported', () => {
  assert.deepEqual(violationsOf(result, () => true), [
    'layer:questions: src/questions/q.ts → src/router/other.ts',
    'layer:router: src/router/up.ts → src/edges/http/edge.ts',
    'layer:router:tests: src/router/up.test.ts → src/cli/cmd.ts',
    'layer:memory store: src/store/memory/m.ts → src/store/sqlite/s.ts',
    'layer:modern hosts: src/hosts/modern/nested.ts → src/edges/http/edge.ts',
    'no-circular: src/store/a.ts → src/store/b.ts → src/store/a.ts',
    'no-test-code-in-production: src/router/uses-fake.ts → src/router/testing/fake.ts',
    'not-in-a-layer: src/newfolder/x.ts → src/protocol/ok.ts',
    'not-to-unresolvable: src/bridge/b.ts → ./missing.js',
    'pure-rooms-do-no-io: src/protocol/pure.ts → fs',
    'pure-rooms-import-no-packages: src/translation/t.ts → hono',
    'sdk-client-only-in-upstream-transports: src/config/c.ts → @modelcontextprotocol/client',
    'server-side-only-in-edges: src/translation/t.ts → hono',
  ].sort());
});

test('globs: a folder holds its own files with its testing/ and __fixtures__/ trees, ** a whole tree, * one segment', () => {
  const matches = (glob: string, path: string) => new RegExp(globToRegex(glob)).test(path);
  assert.equal(matches('src/router/*', 'src/router/calls.ts'), true);
  assert.equal(matches('src/upstream/*', 'src/upstream/testing/fake-upstream.ts'), true);
  assert.equal(matches('src/config/*', 'src/config/__fixtures__/parts/a.ts'), true);
  assert.equal(matches('src/upstream/*', 'src/upstream/rounds/input-round.ts'), false);
  assert.equal(matches('src/cli/**', 'src/cli/commands/serve.ts'), true);
  assert.equal(matches('src/upstream/transport/transport*.ts', 'src/upstream/transport/transport.test.ts'), true);
  assert.equal(matches('src/upstream/transport/transport*.ts', 'src/upstream/transport/sdk/transport.ts'), false);
});
