/** @module scripts/conformance/failures: reads a leg's checks.json files and lists every failed check (scenario, check id, message). */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** `server-<scenario>-<timestamp>` or `<scenario>-<timestamp>` → the scenario name. */
function scenarioOf(dirName) {
  return dirName.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
}

async function checksFiles(dir) {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await checksFiles(path)));
    else if (entry.name === 'checks.json') found.push(path);
  }
  return found;
}

/** Every FAILURE check under `dir`: `{ scenario, id, message, details }`, ordered by scenario. */
export async function failedChecks(dir) {
  const failures = [];
  for (const file of await checksFiles(dir)) {
    const scenario = scenarioOf(file.split('/').at(-2));
    let checks;
    try {
      checks = JSON.parse(await readFile(file, 'utf8'));
    } catch {
      failures.push({ scenario, id: '(unreadable checks.json)', message: file });
      continue;
    }
    for (const check of checks) {
      if (check.status === 'FAILURE') failures.push({ scenario, id: check.id, message: check.errorMessage ?? '', details: check.details });
    }
  }
  return failures.sort((a, b) => a.scenario.localeCompare(b.scenario));
}

/** One line per failed check, the message cut to `width` characters. */
export function formatFailures(failures, width = 240) {
  return failures.map(({ scenario, id, message }) => {
    const text = message.replace(/\s+/g, ' ');
    return `  ✗ ${scenario} › ${id}: ${text.length > width ? `${text.slice(0, width - 1)}…` : text}`;
  });
}
