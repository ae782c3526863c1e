import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { probeGateway } from './gateway-probe.js';

const TOKEN = 'fake-operator-token-0123456789';

/** A stand-in for `switchboard serve`: prints the listening line, answers /healthz as the real one does (details only with the token), stops on SIGTERM. */
function fakeGateway(dir: string, store: unknown): string {
  const file = join(dir, 'fake-gateway.mjs');
  writeFileSync(
    file,
    `import { createServer } from 'node:http';
const server = createServer((req, res) => {
  if (req.url !== '/healthz') { res.writeHead(404).end(); return; }
  const operator = req.headers.authorization === 'Bearer ${TOKEN}';
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(operator ? { ready: true, upstreams: {}, store: ${JSON.stringify(store)} } : { ready: true }));
});
server.listen(0, '127.0.0.1', () => console.log('Switchboard listening on http://127.0.0.1:' + server.address().port + '/mcp'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`,
  );
  return file;
}

function setUp(t: { after: (fn: () => void) => void }): { dir: string; tokenFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'sb-probe-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const tokenFile = join(dir, 'operator-token');
  writeFileSync(tokenFile, `${TOKEN}\n`);
  return { dir, tokenFile };
}

test('probeGateway waits for the listening line, reads /healthz with and without the operator token, and stops the gateway', async (t) => {
  const { dir, tokenFile } = setUp(t);
  const script = fakeGateway(dir, { type: 'sqlite', where: 'data/questions.db' });
  const result = await probeGateway({ command: process.execPath, args: [script], cwd: dir, env: process.env, tokenFile, timeoutMs: 10_000 });
  assert.match(result.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(result.storeFile, join(dir, 'data/questions.db'));
  assert.deepEqual(result.health, { ready: true });
  assert.equal(result.exitCode, 0);
});

test('a gateway whose store is not SQLite fails the probe', async (t) => {
  const { dir, tokenFile } = setUp(t);
  const script = fakeGateway(dir, { type: 'memory' });
  await assert.rejects(
    probeGateway({ command: process.execPath, args: [script], cwd: dir, env: process.env, tokenFile, timeoutMs: 10_000 }),
    /\/healthz says the store is \{"type":"memory"\}, expected the embedded SQLite store/,
  );
});

test('a gateway that cannot load the SQLite driver fails the probe with what it printed and what to look at', async (t) => {
  const { dir, tokenFile } = setUp(t);
  const script = join(dir, 'no-driver.mjs');
  writeFileSync(script, `console.error('switchboard: cannot open the question store data/questions.db: Could not locate the bindings file. Tried:'); process.exit(1);\n`);
  await assert.rejects(probeGateway({ command: process.execPath, args: [script], cwd: dir, env: process.env, tokenFile, timeoutMs: 10_000 }), (error: Error) => {
    assert.match(error.message, /the gateway exited \(code 1\) before it was listening/);
    assert.match(error.message, /Could not locate the bindings file/);
    assert.match(error.message, /the SQLite driver \(better-sqlite3\) was not built for this Node: npm skipped its install script or the build failed; see allowScripts in package\.json/);
    return true;
  });
});

test('a gateway that never says it listens is stopped after the timeout', async (t) => {
  const { dir, tokenFile } = setUp(t);
  const script = join(dir, 'silent.mjs');
  writeFileSync(script, `setInterval(() => {}, 1000);\n`);
  const started = Date.now();
  await assert.rejects(
    probeGateway({ command: process.execPath, args: [script], cwd: dir, env: process.env, tokenFile, timeoutMs: 500 }),
    /the gateway did not print its listening line within 0\.5 s/,
  );
  assert.ok(Date.now() - started < 5_000);
});
