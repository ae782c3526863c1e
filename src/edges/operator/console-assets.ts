/**
 * @module Serves the console's page and static files from src/console/, found from the package root so the same
 * code works from src/ (tsx) and from dist/src/ (tsc output, which does not copy them).
 */

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { operatorError } from './operator-errors.js';

/** Nothing but our own files: no inline script or style, no other origin, no framing, no form posts. */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

const TYPES: Readonly<Record<string, string>> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};

/** A plain file name with a served extension: no slashes, no dots but the extension's, so no way out of the folder. */
const ASSET_NAME = /^[a-z0-9][a-z0-9-]*\.(js|css|svg)$/;

/** The package root: the nearest folder upwards from this module that holds package.json (dist/ has none). */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** src/console under the package root: index.html and assets/. */
export function defaultConsoleDir(): string {
  return join(packageRoot(), 'src', 'console');
}

export interface ConsoleAssets {
  page(): Promise<Response>;
  asset(name: string): Promise<Response>;
}

export function createConsoleAssets(consoleDir: string = defaultConsoleDir()): ConsoleAssets {
  async function serve(path: string, contentType: string, cacheControl: string): Promise<Response | undefined> {
    let body: Buffer;
    try {
      body = await readFile(path);
    } catch {
      return undefined;
    }
    return new Response(new Uint8Array(body), { status: 200, headers: { ...CONSOLE_HEADERS, 'content-type': contentType, 'cache-control': cacheControl } });
  }
  const missing = (what: string) => operatorError('NOT_FOUND', `No console file ${JSON.stringify(what)}`, { headers: CONSOLE_HEADERS });
  return {
    async page() {
      return (await serve(join(consoleDir, 'index.html'), 'text/html; charset=utf-8', 'no-store')) ?? missing('index.html');
    },
    async asset(name) {
      const match = ASSET_NAME.exec(name);
      const type = match?.[1] === undefined ? undefined : TYPES[match[1]];
      if (type === undefined) return missing(name);
      return (await serve(join(consoleDir, 'assets', name), type, 'no-cache')) ?? missing(name);
    },
  };
}
