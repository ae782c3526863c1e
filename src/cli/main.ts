/** @module Entry point of the `switchboard` command (loaded by bin/switchboard.mjs): runs the CLI on the real process. */

import { processIo } from './cli-io.js';
import { runCli } from './run-cli.js';

const code = await runCli(process.argv.slice(2), processIo());
// Upstream processes and sockets are closed by then; exit even if a stray handle lingers.
process.exit(code);
