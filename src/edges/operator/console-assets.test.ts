/** @module The console's page and files: strict headers, only files of the console folder, found from src/ and from dist/. */

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { CONSOLE_CSP, createConsoleAssets, defaultConsoleDir, packageRoot } from './console-assets.js';
import { createOperatorRoutes } from './operator-routes.js';
import { FakeOperatorDesk } from './testing/fake-desk.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');
const routes = createOperatorRoutes({ desk: new FakeOperatorDesk(), token: 't' });
const get = async (path: string): Promise<Response> => {
  const response = await routes.handle(new Request(`http://127.0.0.1${path}`));
  assert.ok(response, path);
  return response;
};

describe('console assets', () => {
  it('serve the page with a strict Content-Security-Policy: own scripts only, no inline code, no framing', async () => {
    const response = await get('/console');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
    const csp = response.headers.get('content-security-policy') ?? '';
    assert.equal(csp, CONSOLE_CSP);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*|https?:/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    const html = await response.text();
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/i, 'no inline script');
    assert.doesNotMatch(html, /\son[a-z]+=|style=|<style/i, 'no inline handlers or styles');
    assert.doesNotMatch(html, /https?:\/\//, 'nothing from another origin');
  });

  it('serve scripts, the style sheet and the icon with their types', async () => {
    for (const [name, type] of [
      ['app.js', 'text/javascript; charset=utf-8'],
      ['form-model.js', 'text/javascript; charset=utf-8'],
      ['console.css', 'text/css; charset=utf-8'],
      ['favicon.svg', 'image/svg+xml'],
    ]) {
      const response = await get(`/console/${name}`);
      assert.equal(response.status, 200, name);
      assert.equal(response.headers.get('content-type'), type, name);
      assert.equal(response.headers.get('content-security-policy'), CONSOLE_CSP);
    }
  });

  it('serve nothing else: no way out of the folder, no other extensions', async () => {
    for (const path of ['/console/form-model.d.ts', '/console/..%2Fpackage.json', '/console/%2e%2e%2f%2e%2e%2fpackage.json', '/console/index.html', '/console/App.js', '/console/missing.js', '/console/.hidden.js', '/console/assets/app.js']) {
      const response = await get(path);
      assert.equal(response.status, 404, path);
      assert.doesNotMatch(await response.text(), /"name":\s*"switchboard"/);
    }
  });

  it('find the package root from src/ and from dist/src/ alike (tsc does not copy the console files to dist)', () => {
    assert.equal(packageRoot(join(ROOT, 'src', 'http', 'operator', 'console-assets.ts')), ROOT);
    assert.equal(packageRoot(join(ROOT, 'dist', 'src', 'http', 'operator', 'console-assets.js')), ROOT);
    assert.equal(defaultConsoleDir(), join(ROOT, 'src', 'console'));
  });

  it('answer 404 when the console folder is missing', async () => {
    const assets = createConsoleAssets(join(ROOT, 'no-such-folder'));
    assert.equal((await assets.page()).status, 404);
    assert.equal((await assets.asset('app.js')).status, 404);
  });
});
