#!/usr/bin/env node
// Entry point of the `switchboard` command: runs the compiled CLI (npm install builds it into dist/).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('switchboard: not built yet: run `npm install` (or `npm run build`) in the checkout first\n');
  process.exit(1);
}
// Before the modules load: their one burst of allocation would otherwise grow the young generation for good.
const { holdYoungGenerationSmall } = await import(new URL('../dist/src/cli/startup-heap.js', import.meta.url).href);
holdYoungGenerationSmall();
await import(entry.href);
