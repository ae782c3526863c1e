#!/usr/bin/env node
// Entry point of the `incident-desk` example server: runs its compiled code (npm install builds it into dist/).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/examples/incident-desk/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('incident-desk: not built yet: run `npm install` (or `npm run build`) in the checkout first\n');
  process.exit(1);
}
await import(entry.href);
