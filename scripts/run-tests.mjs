// Runs every *.test.ts under the given folders, and any test files named (default: src, test, examples, scripts and bench), with node's test runner and tsx.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const roots = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['src', 'test', 'examples', 'scripts', 'bench'];
const files = [];
function walk(dir) {
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) walk(path);
    else if (entry.endsWith('.test.ts')) files.push(path);
  }
}
for (const root of roots) {
  if (statSync(root).isDirectory()) walk(root);
  else files.push(root);
}
files.sort();
if (files.length === 0) {
  console.error('no test files found under', roots.join(', '));
  process.exit(1);
}
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  { stdio: 'inherit' },
);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
