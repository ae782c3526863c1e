/** @module incident-desk/main: the `incident-desk` command: parses its flags and serves over stdio or Streamable HTTP, legacy or stateless. */
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

import { ArgsError, type IncidentDeskArgs, parseIncidentDeskArgs, USAGE } from './args.js';
import type { RunningHttpServer } from './http-listen.js';
import { startHttpServer } from './http-server.js';
import { createIncidentDeskServer } from './server.js';
import { startStatelessHttpServer } from './stateless/http-server.js';
import { createDeskStateCodec } from './stateless/request-state.js';
import type { StatelessDeskOptions } from './stateless/server.js';
import { StateKeyError, stateKeyFromEnv } from './stateless/state-key.js';
import { serveStatelessStdio } from './stateless/stdio-server.js';

function reportReady(running: RunningHttpServer): void {
  process.stderr.write(`incident-desk listening on ${running.url}\n`);
  const stop = (): void => void running.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

function statelessOptions(): StatelessDeskOptions {
  return {
    states: createDeskStateCodec({ key: stateKeyFromEnv() }),
    // Rejections (a refused requestState, a legacy initialize) are answered on the wire; the reason is logged here.
    onerror: (error) => void process.stderr.write(`incident-desk: ${error.message}\n`),
  };
}

async function serveStateless(args: IncidentDeskArgs): Promise<void> {
  const options = statelessOptions();
  if (args.http) {
    reportReady(await startStatelessHttpServer(args.http, options));
    return;
  }
  // stdio: stdout carries protocol messages only; the process ends when the host closes stdin.
  serveStatelessStdio(options);
}

async function main(argv: readonly string[]): Promise<void> {
  const args = parseIncidentDeskArgs(argv);
  if (args.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  if (args.stateless) {
    await serveStateless(args);
    return;
  }
  const options = args.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: args.requestTimeoutMs };
  if (args.http) {
    reportReady(await startHttpServer(args.http, options));
    return;
  }
  // stdio: stdout carries protocol messages only; the process ends when the host closes stdin.
  await createIncidentDeskServer(options).connect(new StdioServerTransport());
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ArgsError || error instanceof StateKeyError) {
    process.stderr.write(`incident-desk: ${error.message}\n${USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`incident-desk: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
