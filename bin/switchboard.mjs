#!/usr/bin/env node
// Entry point of the `switchboard` command: runs the compiled CLI (npm install builds it into dist/).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('switchboard: not built yet: run `npm install` (or `npm run build`) in the checkout first\n');
  process.exit(1);
}
await import(entry.href);
