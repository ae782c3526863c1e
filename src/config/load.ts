/** @module Reading a config file: YAML text -> validated, normalized config, or one ConfigError that points at the line. */

import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import type { Document } from 'yaml';
import { ConfigError } from './config-error.js';
import { formatConfigPath } from './config-path.js';
import { expandConfigVariables } from './env-expand.js';
import type { Environment } from './env-expand.js';
import { problemsFromIssues } from './issue-problems.js';
import type { ConfigProblem } from './issue-problems.js';
import { normalizeConfig } from './normalize.js';
import { configSchema } from './schema.js';
import type { NormalizedConfig } from './types.js';
import { lineOfPath, mapKeysInOrder } from './yaml-nodes.js';

export { ConfigError } from './config-error.js';

export interface LoadOptions {
  /** Where `${VAR}` values come from; default `process.env`. */
  env?: Environment;
}

const READ_FAILURES: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EISDIR: 'is a folder, not a file',
};

/** Reads and parses the config file at `path` (messages name the file as given). */
export async function loadConfig(path: string, options: LoadOptions = {}): Promise<NormalizedConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new ConfigError({ file: path, reason: `cannot read: ${READ_FAILURES[code ?? ''] ?? message}` });
  }
  return parseConfigText(text, path, options);
}

/** The YAML syntax message without yaml's " at line L, column C:" tail and code frame. */
function syntaxReason(code: string, message: string): string {
  if (code === 'MULTIPLE_DOCS') return 'the file must hold a single YAML document (found another after ---)';
  const first = message.split('\n', 1)[0] ?? message;
  return first.replace(/ at line \d+, column \d+:?$/, '');
}

/** The problem that comes first in the file (ties: the one found first), as a ConfigError. */
function firstProblem(problems: ConfigProblem[], doc: Document, lineCounter: LineCounter, file: string): ConfigError {
  let first: { problem: ConfigProblem; line: number } | undefined;
  for (const problem of problems) {
    const line = lineOfPath(doc, lineCounter, problem.path);
    if (first === undefined || line < first.line) first = { problem, line };
  }
  if (first === undefined) return new ConfigError({ file, reason: 'is not a valid config' });
  return new ConfigError({ file, line: first.line, path: formatConfigPath(first.problem.path), reason: first.problem.message });
}

/** Parses config text; `sourcePath` names the file in messages and anchors relative `cwd`s. */
export function parseConfigText(text: string, sourcePath: string, options: LoadOptions = {}): NormalizedConfig {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true });
  const syntaxError = doc.errors[0];
  if (syntaxError !== undefined) {
    const line = syntaxError.linePos?.[0].line ?? lineCounter.linePos(syntaxError.pos[0]).line;
    // `listen: [::1]:3939` reads as a YAML list followed by junk: say what to do instead.
    const hint = /^listen:\s*\[/.test(text.split(/\r?\n/)[line - 1] ?? '') ? ' (quote an IPv6 listen address: "[::1]:3939")' : '';
    throw new ConfigError({ file: sourcePath, line, reason: `invalid YAML: ${syntaxReason(syntaxError.code, syntaxError.message)}${hint}` });
  }
  if (doc.contents === null) {
    throw new ConfigError({ file: sourcePath, line: 1, reason: 'the file is empty (it needs at least an upstreams: map)' });
  }
  let raw: unknown;
  try {
    raw = doc.toJS();
  } catch (error) {
    throw new ConfigError({ file: sourcePath, line: 1, reason: `invalid YAML: ${(error as Error).message}` });
  }

  const problems: ConfigProblem[] = expandConfigVariables(raw, options.env ?? process.env);
  const result = configSchema.safeParse(raw);
  if (!result.success) problems.push(...problemsFromIssues(result.error.issues, raw, configSchema));
  if (!result.success || problems.length > 0) throw firstProblem(problems, doc, lineCounter, sourcePath);
  return normalizeConfig(result.data, { source: resolve(sourcePath), upstreamOrder: mapKeysInOrder(doc, ['upstreams']) });
}
