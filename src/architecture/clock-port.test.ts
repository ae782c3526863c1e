/** @module Time and ids come through the clock port: no runtime module of src/ reads the system clock or keeps a module-global counter, but core/clock.ts. */

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import ts from 'typescript';

const SRC = new URL('../', import.meta.url);
/** The one module that reads the system clock. */
const CLOCK_PORT = 'core/clock.ts';

/** Runtime sources of src/ (no tests, no testing/ helpers), by path relative to src/. */
function runtimeSources(): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
    const path = entry.split(/[\\/]/).join('/');
    if (!path.endsWith('.ts') || path.endsWith('.test.ts') || path.endsWith('.d.ts') || path.split('/').includes('testing')) continue;
    out.set(path, readFileSync(new URL(path, SRC), 'utf8'));
  }
  return out;
}

/** `Date.now` (called or passed on), `new Date()` without arguments, and module-level `let x = <number>` (a counter), as `file:line: what`. */
export function clockUses(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) => found.push(`${path}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && node.getText() === 'Date.now') at(node, 'Date.now');
    if (ts.isNewExpression(node) && node.expression.getText() === 'Date' && (node.arguments?.length ?? 0) === 0) at(node, 'new Date()');
    ts.forEachChild(node, visit);
  };
  visit(file);
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement) || (statement.declarationList.flags & ts.NodeFlags.Let) === 0) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (declaration.initializer && ts.isNumericLiteral(declaration.initializer)) at(declaration, `module-global counter ${declaration.name.getText()}`);
    }
  }
  return found;
}

test('the scan sees each form it looks for (so the check below cannot pass vacuously)', () => {
  const text = 'let counter = 0;\nconst a = Date.now();\nconst b = new Date();\nconst c = new Date(0);\nfunction f() { let inner = 0; return inner; }\nconst g = options.now ?? Date.now;\n';
  assert.deepEqual(clockUses('x.ts', text), ['x.ts:2: Date.now', 'x.ts:3: new Date()', 'x.ts:6: Date.now', 'x.ts:1: module-global counter counter']);
});

test('no runtime module reads the system clock or counts ids in a module-global, but the clock port', () => {
  const sources = runtimeSources();
  assert.ok(sources.size > 200, `only ${sources.size} files read`);
  assert.ok(clockUses(CLOCK_PORT, sources.get(CLOCK_PORT) ?? '').length > 0, 'the clock port itself reads the system clock');
  const uses = [...sources].filter(([path]) => path !== CLOCK_PORT).flatMap(([path, text]) => clockUses(path, text));
  assert.deepEqual(uses, [], 'take a Clock (core/clock.ts; systemClock by default) or an IdSource instead');
});
