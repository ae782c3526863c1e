/** @module Type-checks the console's browser modules (JavaScript with JSDoc types) and checks that assets/form-model.d.ts is current. */

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';

const consoleDir = fileURLToPath(new URL('.', import.meta.url));
const assetsDir = join(consoleDir, 'assets');

test('every console module type-checks (strict, DOM), and form-model.d.ts is what `npx tsc -p src/console/tsconfig.json` writes', () => {
  const config = ts.getParsedCommandLineOfConfigFile(join(consoleDir, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')) });
  assert.ok(config);
  const modules = readdirSync(assetsDir).filter((name) => name.endsWith('.js')).map((name) => join(assetsDir, name));
  assert.ok(modules.length >= 5, 'the console modules are found');
  // Checked as a whole without emitting (the other modules see form-model through its .d.ts, as TypeScript resolves it).
  const program = ts.createProgram(modules, { ...config.options, noEmit: true, declaration: false, emitDeclarationOnly: false });
  const problems = ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${relative(consoleDir, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ` : '';
    return `${where}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
  assert.deepEqual(problems, []);

  // The declarations, from the tsconfig's own program (form-model.js alone), as tsc would write them.
  const emitter = ts.createProgram(config.fileNames, config.options, undefined, program);
  let declarations: string | undefined;
  const emitted = emitter.emit(undefined, (name, text) => {
    if (name.endsWith('form-model.d.ts')) declarations = text;
  });
  assert.deepEqual(emitted.diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')), []);
  assert.equal(readFileSync(join(assetsDir, 'form-model.d.ts'), 'utf8'), declarations, 'run `npx tsc -p src/console/tsconfig.json` after changing form-model.js');
});
