/** @module Enforces the layers of .dependency-cruiser.mjs over src/ in `npm test`: one test per rule family, each failure one line per import. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EXCEPTIONS, LAYERS, globToRegex, roomRegex, rulesFor } from '../../.dependency-cruiser.mjs';
import { cruiseTree, REPO_ROOT, violationsOf } from './testing/cruise.js';

const result = await cruiseTree(REPO_ROOT, rulesFor(LAYERS, EXCEPTIONS));
const sources = result.modules.map((m) => m.source).filter((source) => source.startsWith('src/'));
const rooms = LAYERS.flatMap((layer, index) => layer.rooms.map((room) => ({ ...room, index, pattern: new RegExp(roomRegex(room)) })));
const roomOf = (path: string) => rooms.find((room) => room.pattern.test(path));

test('every module of src/ is in exactly one room of LAYERS, and every room holds a module', () => {
  const homes = sources.map((source) => ({ source, in: rooms.filter((room) => room.pattern.test(source)).map((room) => room.name) }));
  assert.deepEqual(homes.filter((home) => home.in.length !== 1).map((home) => `${home.source} is in ${home.in.length === 0 ? 'no room' : home.in.join(' and ')}`), []);
  assert.deepEqual(rooms.filter((room) => !sources.some((source) => room.pattern.test(source))).map((room) => `room ${room.name} (${room.globs.join(', ')}) holds no module`), []);
});

test('no module imports up a layer or into a sibling room', () => {
  assert.deepEqual(violationsOf(result, (rule) => rule.startsWith('layer:') || rule === 'not-in-a-layer'), []);
});

test('no import circle (no-circular)', () => {
  assert.deepEqual(violationsOf(result, (rule) => rule === 'no-circular'), []);
});

test('production code imports no test code', () => {
  assert.deepEqual(violationsOf(result, (rule) => rule === 'no-test-code-in-production'), []);
});

test('only the edges import HTTP frameworks and the SDK server side, only the upstream transports the SDK client, and pure rooms no node: I/O and no package', () => {
  const packageRules = ['server-side-only-in-edges', 'sdk-client-only-in-upstream-transports', 'pure-rooms-do-no-io', 'pure-rooms-import-no-packages'];
  assert.deepEqual(violationsOf(result, (rule) => packageRules.includes(rule)), []);
});

test('every import resolves', () => {
  assert.deepEqual(violationsOf(result, (rule) => rule === 'not-to-unresolvable'), []);
});

test('every violation is of a rule one of the tests above looks at', () => {
  const known = /^(layer:|not-in-a-layer$|no-circular$|no-test-code-in-production$|server-side-only-in-edges$|sdk-client-only-in-upstream-transports$|pure-rooms-do-no-io$|pure-rooms-import-no-packages$|not-to-unresolvable$)/;
  assert.deepEqual(violationsOf(result, (rule) => !known.test(rule)), []);
});

test('every exception is an import that exists today and points up (or sideways): delete it once its step removed it', () => {
  const edges = new Set(result.modules.flatMap((m) => m.dependencies.map((d) => `${m.source} → ${d.resolved}`)));
  const stale = EXCEPTIONS.flatMap((exception) =>
    exception.to.flatMap((to) => {
      const edge = `${exception.from} → ${to}`;
      if (!edges.has(edge)) return [`${edge}: no such import any more`];
      const from = roomOf(exception.from);
      const target = roomOf(to);
      const pointsDown = from !== undefined && target !== undefined && (target.index > from.index || target.name === from.name);
      return pointsDown ? [`${edge}: allowed without an exception`] : [];
    }),
  );
  assert.deepEqual(stale, []);
});

test('the cruise sees type-only imports, nested folders and packages (so the rules cannot pass vacuously)', () => {
  const dependenciesOf = (source: string) => result.modules.find((m) => m.source === source)?.dependencies ?? [];
  assert.ok(sources.length > 300, `only ${sources.length} modules cruised`);
  assert.ok(dependenciesOf('src/hosts/modern/principal-session.ts').some((d) => d.resolved === 'src/router/routed-session.ts' && d.dependencyTypes.includes('type-only')));
  assert.ok(dependenciesOf('src/observability/gateway-metrics.ts').some((d) => d.resolved === 'src/upstream/session.ts' && d.dependencyTypes.includes('type-only')));
  assert.ok(dependenciesOf('src/upstream/transport/sdk/sdk-adapter.ts').some((d) => d.module.startsWith('@modelcontextprotocol/client') && !d.couldNotResolve));
  assert.equal(new RegExp(globToRegex('src/config/*')).test('src/config/__fixtures__/parts/x.yaml'), true);
});
