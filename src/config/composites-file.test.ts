/** @module Tests of `composites:` given as the path of a YAML file: read relative to the config, errors naming that file. */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parseConfigText } from './load.js';
import { assertConfigError } from './testing/assert-config-error.js';
import { yaml } from './testing/config-text.js';

describe('composites: a path to a YAML file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-composites-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const config = join(dir, 'sb.yaml');
  const write = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const main = (path: string): string => yaml('upstreams:', '  desk: { command: node }', `composites: ${path}`);

  test('is read relative to the config file, in file order', () => {
    write('good.yaml', yaml('zeta:', '  description: d', '  steps: [{ id: a, tool: desk.status }]', 'alpha:', '  description: d', '  steps: [{ id: a, tool: desk.status }]'));
    const loaded = parseConfigText(main('good.yaml'), config, { env: {} });
    assert.deepEqual(
      loaded.composites.map((composite) => composite.name),
      ['zeta', 'alpha'],
    );
  });

  test('problems in it name that file, its line, the composite and the step', () => {
    const path = write('bad.yaml', yaml('safe_restart:', '  description: d', '  steps:', '    - id: restart', '      dependsOn: [aprove]', '      tool: desk.restart_service'));
    assertConfigError(() => parseConfigText(main('bad.yaml'), config, { env: {} }), `${path}:5: composites.safe_restart.steps[0] (restart): dependsOn names unknown step 'aprove'`);
  });

  test('schema problems in it name that file too', () => {
    const path = write('typo.yaml', yaml('safe_restart:', '  description: d', '  steps:', '    - id: restart', '      tool: desk.restart_service', '      timout: 5s'));
    assertConfigError(() => parseConfigText(main('typo.yaml'), config, { env: {} }), `${path}:6: composites.safe_restart.steps[0] (restart).timout: unknown key (did you mean timeout?)`);
  });

  test('a problem in the config file comes before one in the composites file', () => {
    write('also-bad.yaml', yaml('x:', '  steps: []'));
    assertConfigError(
      () => parseConfigText(yaml('composites: also-bad.yaml', 'upstreams:', '  desk: { command: node, sharing: sometimes }'), config, { env: {} }),
      `${config}:3: upstreams.desk.sharing: must be one of per-session, shared (got "sometimes")`,
    );
  });

  test('a file that cannot be read is reported at composites', () => {
    assertConfigError(() => parseConfigText(main('absent.yaml'), config, { env: {} }), `${config}:3: composites: cannot read ${join(dir, 'absent.yaml')}: no such file`);
  });

  test('a file that is not a map of composites', () => {
    const path = write('list.yaml', yaml('- safe_restart'));
    assertConfigError(() => parseConfigText(main('list.yaml'), config, { env: {} }), `${path}:1: must be a map of composite tools (got a list)`);
  });

  test('an empty file', () => {
    const path = write('empty.yaml', yaml('# nothing yet'));
    assertConfigError(() => parseConfigText(main('empty.yaml'), config, { env: {} }), `${path}:1: the file is empty (it needs a map of composite tools)`);
  });

  test('a file that is not YAML', () => {
    const path = write('broken.yaml', yaml('safe_restart:', '  steps: [a, b'));
    assertConfigError(() => parseConfigText(main('broken.yaml'), config, { env: {} }), `${path}:3: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]`);
  });
});
