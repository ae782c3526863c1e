/** @module `switchboard reload`: asks a running gateway to read its config file again and apply it (as SIGHUP does), and says what changed. */

import type { ReloadAnswer } from '../../edges/operator/config-schemas.js';
import { parseCommandLine } from '../args.js';
import type { CliIo } from '../cli-io.js';
import { UsageError } from '../cli-io.js';
import { ConnectError, EXIT_CANNOT_CONNECT } from '../connect-error.js';
import { RELOAD_HELP } from '../help.js';
import { OperatorApiError, OperatorClient } from '../operator-client.js';
import { apiErrorText } from '../questions/api-error-text.js';
import { CONNECTION_OPTIONS, operatorClientOptions } from '../questions/operator-options.js';
import { safeText } from '../terminal-text.js';

/** Exit code when the gateway refused the file or the request (a config that does not validate, 401, 404). */
const EXIT_REFUSED = 1;

/** What a reload did, in a few lines. */
export function describeReload(answer: ReloadAnswer): string {
  const { config } = answer;
  if (!answer.ok) return `Config reload refused; the running config stays (${config.version}, loaded ${config.loadedAt}):\n  ${answer.error}\n`;
  if (!answer.changed) return `Config unchanged: ${config.version}, loaded ${config.loadedAt}\n`;
  const lines = [`Config reloaded: ${config.version} (generation ${config.generation}), loaded ${config.loadedAt}`];
  for (const [label, names] of [['added', answer.upstreams.added], ['removed', answer.upstreams.removed], ['reconnected', answer.upstreams.changed]] as const) {
    if (names.length > 0) lines.push(`  upstreams ${label}: ${names.join(', ')}`);
  }
  if (answer.needsRestart.length > 0) lines.push(`  these settings take effect at the next restart: ${answer.needsRestart.join(', ')}`);
  return `${lines.join('\n')}\n`;
}

export async function reloadCommand(argv: string[], io: CliIo): Promise<number> {
  const { values: flags, positionals } = parseCommandLine('reload', argv, CONNECTION_OPTIONS);
  if (flags.help) {
    io.stdout.write(RELOAD_HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`reload: unexpected argument ${positionals[0] ?? ''} (try: switchboard reload --help)`);
  const options = operatorClientOptions('reload', flags, io.env);
  let answer: ReloadAnswer;
  try {
    answer = await new OperatorClient(options).reloadConfig();
  } catch (error) {
    if (error instanceof OperatorApiError) {
      io.stderr.write(`switchboard: ${apiErrorText(error, undefined, options.token)}\n`);
      return EXIT_REFUSED;
    }
    if (error instanceof ConnectError) {
      io.stderr.write(`switchboard: ${error.message}\n`);
      return EXIT_CANNOT_CONNECT;
    }
    throw error;
  }
  if (flags.json) io.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
  else (answer.ok ? io.stdout : io.stderr).write(describeReload(answer).split('\n').map(safeText).join('\n'));
  return answer.ok ? 0 : EXIT_REFUSED;
}
