/** @module Reading a config file: YAML text -> validated, normalized config, or one ConfigError that points at the line. */

import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import type { Document } from 'yaml';
import { validateComposites } from '../composite/validate.js';
import { ConfigError } from './config-error.js';
import { formatConfigPath, valueAt } from './config-path.js';
import type { ConfigPath } from './config-path.js';
import { describeValue } from './describe-value.js';
import { expandConfigVariables } from './env-expand.js';
import type { Environment } from './env-expand.js';
import { problemsFromIssues } from './issue-problems.js';
import type { ConfigProblem } from './issue-problems.js';
import { normalizeConfig } from './normalize.js';
import { configSchema } from './schema.js';
import { storeUrlFromEnvironment } from './sections/store.js';
import { cookieSecretFromEnvironment } from './sections/auth.js';
import { clusterSecretFromEnvironment } from './sections/cluster.js';
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

/** A YAML document and the file it came from, for pointing at lines. */
interface Source {
  file: string;
  doc: Document;
  lineCounter: LineCounter;
}

/** Where problems are found: the config file, and the composites file when `composites:` names one. */
interface Sources {
  main: Source;
  composites?: Source;
}

/** The shown path: the config path, with each composite step's id after its index (`composites.x.steps[2] (restart).timeout`). */
function shownPath(path: ConfigPath, raw: unknown): string {
  if (path[0] !== 'composites' || path[2] !== 'steps' || typeof path[3] !== 'number') return formatConfigPath(path);
  const id = valueAt(raw, [...path.slice(0, 4), 'id']);
  if (typeof id !== 'string') return formatConfigPath(path);
  const rest = path.slice(4);
  const tail = rest.length === 0 ? '' : `${typeof rest[0] === 'number' ? '' : '.'}${formatConfigPath(rest)}`;
  return `${formatConfigPath(path.slice(0, 4))} (${id})${tail}`;
}

/** The problem that comes first (in the config file, then in the composites file; ties: the one found first), as a ConfigError. */
function firstProblem(problems: ConfigProblem[], sources: Sources, raw: unknown): ConfigError {
  let first: { problem: ConfigProblem; source: Source; rank: number; line: number } | undefined;
  for (const problem of problems) {
    const inComposites = sources.composites !== undefined && problem.path[0] === 'composites' && problem.path.length > 1;
    const source = inComposites ? (sources.composites as Source) : sources.main;
    const line = lineOfPath(source.doc, source.lineCounter, inComposites ? problem.path.slice(1) : problem.path);
    const rank = inComposites ? 1 : 0;
    if (first === undefined || rank < first.rank || (rank === first.rank && line < first.line)) first = { problem, source, rank, line };
  }
  if (first === undefined) return new ConfigError({ file: sources.main.file, reason: 'is not a valid config' });
  const { problem, source, line } = first;
  return new ConfigError({ file: source.file, line, path: shownPath(problem.shownPath ?? problem.path, raw), reason: problem.message });
}

/** One YAML document from text, or the ConfigError of its first syntax error. */
function parseYaml(text: string, file: string, emptyReason: string): { source: Source; value: unknown } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true });
  const syntaxError = doc.errors[0];
  if (syntaxError !== undefined) {
    const line = syntaxError.linePos?.[0].line ?? lineCounter.linePos(syntaxError.pos[0]).line;
    // `listen: [::1]:3939` reads as a YAML list followed by junk: say what to do instead.
    const hint = /^listen:\s*\[/.test(text.split(/\r?\n/)[line - 1] ?? '') ? ' (quote an IPv6 listen address: "[::1]:3939")' : '';
    throw new ConfigError({ file, line, reason: `invalid YAML: ${syntaxReason(syntaxError.code, syntaxError.message)}${hint}` });
  }
  if (doc.contents === null) throw new ConfigError({ file, line: 1, reason: emptyReason });
  try {
    return { source: { file, doc, lineCounter }, value: doc.toJS() };
  } catch (error) {
    throw new ConfigError({ file, line: 1, reason: `invalid YAML: ${(error as Error).message}` });
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `composites: <path>`: reads that YAML file (relative to the config file) and puts its map in place of the
 * path. Its problems then name that file (as the config file's folder joined with the path).
 */
function readCompositesFile(raw: Record<string, unknown>, main: Source, sourcePath: string): Source {
  const relativePath = raw['composites'] as string;
  const file = isAbsolute(relativePath) ? relativePath : join(dirname(sourcePath), relativePath);
  const line = lineOfPath(main.doc, main.lineCounter, ['composites']);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new ConfigError({ file: main.file, line, path: 'composites', reason: `cannot read ${file}: ${READ_FAILURES[code ?? ''] ?? message}` });
  }
  const { source, value } = parseYaml(text, file, 'the file is empty (it needs a map of composite tools)');
  if (!isPlainObject(value)) throw new ConfigError({ file, line: 1, reason: `must be a map of composite tools (got ${describeValue(value)})` });
  raw['composites'] = value;
  return source;
}

/** The composites' own checks (dependsOn graph, templates, upstreams) as config problems at each composite and step. */
function compositeProblems(config: NormalizedConfig): ConfigProblem[] {
  const upstreams = config.upstreams.map((upstream) => upstream.name);
  return validateComposites(config.composites, { upstreams }).map((problem) => ({
    path: ['composites', problem.composite, ...problem.path],
    shownPath: ['composites', problem.composite, ...(problem.step === undefined ? [] : ['steps', problem.step.index])],
    message: problem.message,
  }));
}

/** Parses config text; `sourcePath` names the file in messages and anchors relative `cwd`s and the composites file. */
export function parseConfigText(text: string, sourcePath: string, options: LoadOptions = {}): NormalizedConfig {
  const { source: main, value: raw } = parseYaml(text, sourcePath, 'the file is empty (it needs at least an upstreams: map)');
  const sources: Sources = { main };
  if (isPlainObject(raw) && typeof raw['composites'] === 'string' && raw['composites'] !== '') {
    sources.composites = readCompositesFile(raw, main, sourcePath);
  }

  const env = options.env ?? process.env;
  const problems: ConfigProblem[] = expandConfigVariables(raw, env);
  const storeUrlProblem = storeUrlFromEnvironment(raw, env);
  if (storeUrlProblem !== undefined) problems.push(storeUrlProblem);
  clusterSecretFromEnvironment(raw, env);
  cookieSecretFromEnvironment(raw, env);
  const result = configSchema.safeParse(raw);
  if (!result.success) problems.push(...problemsFromIssues(result.error.issues, raw, configSchema));
  if (!result.success || problems.length > 0) throw firstProblem(problems, sources, raw);
  const compositesDoc = sources.composites ?? main;
  const config = normalizeConfig(result.data, {
    source: resolve(sourcePath),
    upstreamOrder: mapKeysInOrder(main.doc, ['upstreams']),
    compositeOrder: mapKeysInOrder(compositesDoc.doc, sources.composites === undefined ? ['composites'] : []),
  });
  const semantic = compositeProblems(config);
  if (semantic.length > 0) throw firstProblem(semantic, sources, raw);
  return config;
}
