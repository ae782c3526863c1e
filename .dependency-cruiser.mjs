/** @module The layers of src/ as one ordered list (top to bottom) and the dependency-cruiser rules generated from it: `npm run deps`, src/architecture/dependency-rules.test.ts and `npm run gen:layers` read it. */

/*
 * How to read and change this file
 * - LAYERS is the only list to edit when files move: top layer first. A module may import its own room and
 *   any room of a LOWER layer. Rooms of one layer are siblings: they do not import each other.
 * - A glob names files relative to the repository root: `src/x/*` is the files of folder x (with its testing/
 *   and __fixtures__/ folders, which hold that folder's test code), `src/x/**` is the whole tree under x, and
 *   any other `*` matches within one path segment. Every module of src/ must be in exactly one room.
 * - Test code (*.test.ts, testing/, __fixtures__/) follows the same arrows and may also import test code of any
 *   layer; production code never imports test code.
 * - `edge`: may import an HTTP framework (hono, @hono/*) and the SDK's server side. `sdkClient`: may import
 *   the SDK's client side (@modelcontextprotocol/client). Both hold for test code too. `pure`: its production
 *   code imports no node: I/O module and no package (its tests may read files).
 * - EXCEPTIONS are imports that point up (or into a sibling room) today. Each names the step that removes it;
 *   a test fails once an exception is no longer needed, so delete it then.
 * - The arrows, top to bottom: checks → commands → app → edges → notify → observability → hosts → router → stores →
 *   questions → upstream → ports → config → composite → {translation, bridge} → protocol → core.
 */

/**
 * @typedef {{ name: string, globs: string[], holds: string, edge?: boolean, sdkClient?: boolean, pure?: boolean }} Room
 * @typedef {{ layer: string, rooms: Room[] }} Layer
 * @typedef {{ from: string, to: string[], why: string, removedBy: string }} Exception
 */

/** @type {Layer[]} */
export const LAYERS = [
  {
    layer: 'checks',
    rooms: [{ name: 'architecture', globs: ['src/architecture/*'], holds: 'checks across the layers: the dependency rules and the generated layer table, both error catalogues against docs/errors.md, the local error family, the clock port' }],
  },
  {
    layer: 'commands',
    rooms: [
      { name: 'cli', globs: ['src/cli/**'], holds: 'the `switchboard` command; operator-setup.ts composes store, desk and token', edge: true },
      { name: 'console', globs: ['src/console/**'], holds: 'the operator web console: static ES modules, no framework, no build step' },
    ],
  },
  {
    layer: 'app',
    rooms: [{ name: 'app', globs: ['src/app/*'], holds: 'the composition root: gateway.ts wires the desk, the upstream pool, the router and the host adapters' }],
  },
  {
    layer: 'operator edge',
    rooms: [{ name: 'operator', globs: ['src/edges/operator/*', 'src/edges/metrics-route*.ts'], holds: 'what operators reach behind their token: the REST API on Hono with @hono/zod-openapi (+ OpenAPI), the console assets, the /metrics route', edge: true }],
  },
  {
    layer: 'host edges',
    rooms: [
      { name: 'http', globs: ['src/edges/http/*'], holds: 'the Streamable HTTP and legacy SSE host edge (a small Hono app): Request -> Response, sessions, SSE, guards, and the cluster link that forwards a request to the instance owning its session or parked call', edge: true },
      { name: 'stdio host', globs: ['src/edges/stdio/*'], holds: 'the stdio host edge', edge: true },
    ],
  },
  {
    layer: 'authentication',
    rooms: [{ name: 'auth', globs: ['src/edges/auth/*'], holds: 'who sent a request: host access tokens (JWT over the issuer\'s JWKS, introspection) and API keys, the Protected Resource Metadata and challenges; operator sign-in with OpenID Connect' }],
  },
  {
    layer: 'notify',
    rooms: [{ name: 'notify', globs: ['src/notify/*'], holds: 'webhooks paged when a question waits for an operator: events from the desk\'s own writes, the JSON and Slack documents, signatures, the bounded delivery queue with retries, each attempt audited, the delivery status operators see' }],
  },
  {
    layer: 'observability',
    rooms: [{ name: 'observability', globs: ['src/observability/*'], holds: 'metrics on prom-client (with the label-set cap) and the logger on pino' }],
  },
  {
    layer: 'hosts',
    rooms: [
      { name: 'modern hosts', globs: ['src/hosts/modern/*'], holds: 'the 2026-07-28 host adapter: server/discover, principal sessions, input_required rounds and parked calls, wrapped rounds, listen streams' },
      { name: 'legacy hosts', globs: ['src/hosts/legacy/*'], holds: 'the sessionful host adapter: initialize, log level, subscriptions, tasks, host notifications; questions as requests on the call\'s stream' },
    ],
  },
  {
    layer: 'router',
    rooms: [{ name: 'router', globs: ['src/router/**'], holds: 'the era-neutral hub: each host\'s routed session, call routing (retry on an era change, progress, composites), the call registry, attribution, the notification fan-out, the question relay to the desk, the catalog, URL elicitations' }],
  },
  // The stores sit beside the router (7.3): they implement the questions' and composites' store ports.
  {
    layer: 'stores',
    rooms: [
      { name: 'sqlite store', globs: ['src/store/sqlite/*'], holds: 'QuestionStore and RunStore over better-sqlite3 (the default)' },
      { name: 'memory store', globs: ['src/store/memory/*'], holds: 'QuestionStore and RunStore in memory' },
      {
        name: 'postgres store',
        globs: ['src/store/postgres/*'],
        holds: 'QuestionStore and RunStore over PostgreSQL (pg, a connection pool) for several instances: each state change a compare-and-set in the database, migrations under an advisory lock',
      },
    ],
  },
  {
    layer: 'store rows',
    rooms: [{ name: 'store rows', globs: ['src/store/*'], holds: 'what every store shares: rows, filters, timestamps, the store errors, the store contract suites' }],
  },
  {
    layer: 'questions',
    rooms: [
      {
        name: 'questions',
        globs: ['src/questions/**'],
        holds: 'the question, owned once: the desk (open, deliver, settle by one table of effects, expire), its domain types, the store port, who is asked (route policy, consent rule)',
        pure: true,
      },
    ],
  },
  {
    layer: 'upstream',
    rooms: [{ name: 'upstream', globs: ['src/upstream/*', 'src/upstream/rounds/*'], holds: 'the client side: upstream sessions, era probe, connect, links and status, the startup probe, input rounds of 2026-07-28 upstreams' }],
  },
  // upstream/transport/ holds both the factory (top) and the contract (bottom) of the upstream transports.
  {
    layer: 'upstream factory',
    rooms: [{ name: 'open upstream', globs: ['src/upstream/transport/open-upstream*.ts'], holds: 'picks and opens the transport an upstream\'s config names', sdkClient: true }],
  },
  {
    layer: 'upstream auth',
    rooms: [{ name: 'oauth', globs: ['src/upstream/transport/oauth/*'], holds: 'OAuth for HTTP upstreams, over the SDK\'s client auth', sdkClient: true }],
  },
  {
    layer: 'upstream transports',
    rooms: [
      { name: 'sdk transports', globs: ['src/upstream/transport/sdk/*'], holds: 'the SDK\'s stdio and SSE client transports behind our Transport', sdkClient: true },
      { name: 'streamable http', globs: ['src/upstream/transport/streamable-http/*'], holds: 'our Streamable HTTP client transport (see 002)', sdkClient: true },
      { name: 'memory transport', globs: ['src/upstream/transport/memory/*'], holds: 'in-memory transport pairs' },
      { name: 'processes', globs: ['src/upstream/transport/processes/*'], holds: 'the ledger and reaper of spawned upstream processes' },
    ],
  },
  {
    layer: 'sse',
    rooms: [{ name: 'sse', globs: ['src/upstream/transport/sse/*'], holds: 'the one SSE parser, over eventsource-parser' }],
  },
  {
    layer: 'transport contract',
    rooms: [{ name: 'transport contract', globs: ['src/upstream/transport/transport*.ts', 'src/upstream/transport/upstream-auth-error*.ts'], holds: 'the Transport contract and its errors' }],
  },
  {
    layer: 'ports',
    rooms: [{ name: 'ports', globs: ['src/ports/*'], holds: 'the contracts between layers: the HostPort every host adapter implements (and its contract suite), what the edges see of the gateway, what the desk needs of an asker, the session count', pure: true }],
  },
  {
    layer: 'config',
    rooms: [{ name: 'config', globs: ['src/config/**'], holds: 'the YAML format (zod schema, one module per section), its loader with line numbers, the normalized IR (types.ts)' }],
  },
  {
    layer: 'composites',
    rooms: [{ name: 'composite', globs: ['src/composite/**'], holds: 'composite tools: definitions, their schema, templates, the runner and its journal', pure: true }],
  },
  {
    layer: 'translation, handles and access',
    rooms: [
      { name: 'access', globs: ['src/access/*'], holds: 'who a verified host or operator is (the principal), the access policy between principals and tools, resources and prompts, and which operators may answer which questions', pure: true },
      { name: 'translation', globs: ['src/translation/**'], holds: 'pure per-revision translation of questions and results; the one answer check, over a JsonSchemaValidator port (ajv)', pure: true },
      { name: 'bridge', globs: ['src/bridge/*'], holds: 'the era bridge: signed requestState handles (see 007)', pure: true },
    ],
  },
  {
    layer: 'protocol',
    rooms: [{ name: 'protocol', globs: ['src/protocol/*'], holds: 'pure JSON-RPC and MCP rules: message classification, both error catalogues (wire codes, GW_ERR_* reasons), revisions, capability arithmetic', pure: true }],
  },
  {
    layer: 'core',
    rooms: [{ name: 'core', globs: ['src/core/**'], holds: 'the shared kernel, importing nothing of src: the logger port, the clock and id ports, the local error family, bounded waits for tests', pure: true }],
  },
];

/** @type {Exception[]} Imports that point up today; each is removed by the step it names (core-review.md 7.3/7.4). */
export const EXCEPTIONS = [
  {
    from: 'src/questions/desk.test.ts',
    to: ['src/store/memory/memory-question-store.ts'],
    why: 'the desk is tested over the memory store (the store port is the contract both stores pass)',
    removedBy: 'a store fake in questions/testing/ once the shared database of issue 13 changes the store port',
  },
  {
    from: 'src/questions/desk-shared.test.ts',
    to: ['src/store/memory/memory-question-store.ts'],
    why: 'two desks (two gateway instances) are tested over one set of the memory store\'s tables',
    removedBy: 'a store fake in questions/testing/ once the shared database of issue 13 changes the store port',
  },
  {
    from: 'src/questions/desk-operator.test.ts',
    to: ['src/store/memory/memory-question-store.ts'],
    why: 'the desk is tested over the memory store (the store port is the contract both stores pass)',
    removedBy: 'a store fake in questions/testing/ once the shared database of issue 13 changes the store port',
  },
];

/** Test code: test files and the testing/ and __fixtures__/ folders. */
export const TEST_CODE = ['\\.test\\.ts$', '(^|/)testing/', '(^|/)__fixtures__/'];

/** Libraries without I/O that a `pure` room may import: schemas and their validation. */
export const PURE_LIBRARIES = ['zod', 'ajv', 'ajv-formats'];

/** node: modules that do I/O or reach the process: a `pure` room imports none of them. */
export const IO_MODULES = [
  'fs', 'fs/promises', 'net', 'http', 'https', 'http2', 'tls', 'dgram', 'dns', 'dns/promises', 'child_process', 'cluster',
  'worker_threads', 'readline', 'readline/promises', 'os', 'process', 'stream', 'stream/promises', 'inspector', 'vm', 'v8',
];

// Package rules match the resolved path (dependency-cruiser has no rule on the specifier).
const SERVER_SIDE = '(^|/)node_modules/(hono|@hono/[^/]+|@modelcontextprotocol/(server|node))/';
const CLIENT_SIDE = '(^|/)node_modules/@modelcontextprotocol/client/';

const NPM = ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-bundled', 'npm-no-pkg', 'npm-unknown'];

const escape = (text) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/** The regular expression (source) of one glob: see the head of this file. */
export function globToRegex(glob) {
  const folder = glob.match(/^(.*)\/\*$/);
  if (folder) return `^${escape(folder[1])}/(?:[^/]+|(?:testing|__fixtures__)/.+)$`;
  const tree = glob.match(/^(.*)\/\*\*$/);
  if (tree) return `^${escape(tree[1])}/.+$`;
  return `^${glob.split('*').map(escape).join('[^/]*')}$`;
}

/** The regular expression of a room: any of its globs. */
export function roomRegex(room) {
  return room.globs.map(globToRegex).join('|');
}

/** The rooms a module of layer `index`, room `own`, may import: its own room and every room of a lower layer. */
function allowedFor(layers, index, own) {
  return [roomRegex(own), ...layers.slice(index + 1).flatMap((layer) => layer.rooms.map(roomRegex))];
}

const exact = (path) => `^${escape(path)}$`;

const isTestCode = (path) => TEST_CODE.some((pattern) => new RegExp(pattern).test(path));

/** The layer rules: per room one for production code and one for test code, and one per file with an exception. */
function layerRules(layers, exceptions) {
  const rules = [];
  const testCode = TEST_CODE.join('|');
  layers.forEach((layer, index) => {
    for (const room of layer.rooms) {
      const allowed = allowedFor(layers, index, room);
      const own = roomRegex(room);
      const below = layers.slice(index + 1).map((l) => l.layer).join(', ') || 'nothing';
      const excepted = [...new Set(exceptions.filter((e) => new RegExp(own).test(e.from)).map((e) => e.from))];
      const production = {
        name: `layer:${room.name}`,
        comment: `${room.name} (layer "${layer.layer}") may import only its own room and the layers below it: ${below}`,
        allowed,
      };
      const tests = {
        name: `layer:${room.name}:tests`,
        comment: `test code of ${room.name} may import its own room, the layers below it (${below}) and test code of any layer`,
        allowed: [...allowed, testCode],
      };
      const rule = (kind, from, extra = []) => ({
        name: kind.name,
        comment: kind.comment,
        severity: 'error',
        from,
        to: { path: '^src/', pathNot: [...kind.allowed, ...extra] },
      });
      rules.push(rule(production, { path: own, pathNot: [testCode, ...excepted.map(exact)] }));
      rules.push(rule(tests, { path: `^(?=.*(?:${testCode}))(?:${own})`, pathNot: excepted.map(exact) }));
      for (const file of excepted) {
        const targets = exceptions.filter((e) => e.from === file).flatMap((e) => e.to).map(exact);
        rules.push(rule(isTestCode(file) ? tests : production, { path: exact(file) }, targets));
      }
    }
  });
  return rules;
}

/** Every rule: the layers, circles, test code, packages and unresolvable imports. */
export function rulesFor(layers, exceptions) {
  const rooms = layers.flatMap((layer) => layer.rooms);
  const testCode = TEST_CODE.join('|');
  const inRoom = (flag) => rooms.filter((room) => room[flag]).map(roomRegex);
  return [
    ...layerRules(layers, exceptions),
    {
      name: 'not-in-a-layer',
      comment: 'every module of src/ belongs to a room of LAYERS in .dependency-cruiser.mjs: add its folder there',
      severity: 'error',
      from: { path: '^src/', pathNot: rooms.map(roomRegex) },
      to: {},
    },
    {
      name: 'no-circular',
      comment: 'an import circle: modules that import each other (type-only imports count) cannot be layered',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-test-code-in-production',
      comment: 'production code must not import test code (*.test.ts, testing/, __fixtures__/)',
      severity: 'error',
      from: { path: '^src/', pathNot: testCode },
      to: { path: testCode },
    },
    {
      name: 'server-side-only-in-edges',
      comment: `only the edges (${rooms.filter((r) => r.edge).map((r) => r.name).join(', ')}) import hono, @hono/* or the SDK's server side`,
      severity: 'error',
      from: { path: '^src/', pathNot: inRoom('edge') },
      to: { dependencyTypes: NPM, path: SERVER_SIDE },
    },
    {
      name: 'sdk-client-only-in-upstream-transports',
      comment: `only the upstream transports (${rooms.filter((r) => r.sdkClient).map((r) => r.name).join(', ')}) import @modelcontextprotocol/client`,
      severity: 'error',
      from: { path: '^src/', pathNot: inRoom('sdkClient') },
      to: { dependencyTypes: NPM, path: CLIENT_SIDE },
    },
    {
      name: 'pure-rooms-do-no-io',
      comment: `${rooms.filter((r) => r.pure).map((r) => r.name).join(', ')} are pure: no node: I/O module (${IO_MODULES.join(', ')})`,
      severity: 'error',
      from: { path: inRoom('pure'), pathNot: testCode },
      to: { dependencyTypes: ['core'], path: IO_MODULES.map((name) => `^(node:)?${escape(name)}$`) },
    },
    {
      name: 'pure-rooms-import-no-packages',
      comment: `${rooms.filter((r) => r.pure).map((r) => r.name).join(', ')} are pure: they import no package but ${PURE_LIBRARIES.join(', ')} (ports are declared here, implemented above)`,
      severity: 'error',
      from: { path: inRoom('pure'), pathNot: testCode },
      to: { dependencyTypes: NPM, pathNot: PURE_LIBRARIES.map((name) => `(^|/)node_modules/${escape(name)}/`) },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'an import that resolves to no file or package',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ];
}

/** The cruise options shared by the CLI and the test. */
export const OPTIONS = {
  tsPreCompilationDeps: true,
  tsConfig: { fileName: 'tsconfig.json' },
  doNotFollow: { path: 'node_modules' },
  // Package `exports` maps (@modelcontextprotocol/client/stdio) resolve as node resolves them for ESM.
  enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'node', 'default'], mainFields: ['module', 'main', 'types'] },
};

export default {
  forbidden: rulesFor(LAYERS, EXCEPTIONS),
  options: OPTIONS,
};
