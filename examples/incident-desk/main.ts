/** @module incident-desk/main: the `incident-desk` command: parses its flags and serves over stdio or Streamable HTTP. */
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

import { ArgsError, parseIncidentDeskArgs, USAGE } from './args.js';
import { startHttpServer } from './http-server.js';
import { createIncidentDeskServer } from './server.js';

async function main(argv: readonly string[]): Promise<void> {
  const args = parseIncidentDeskArgs(argv);
  if (args.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  const options = args.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: args.requestTimeoutMs };
  if (args.http) {
    const running = await startHttpServer(args.http, options);
    process.stderr.write(`incident-desk listening on ${running.url}\n`);
    const stop = (): void => void running.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return;
  }
  // stdio: stdout carries protocol messages only; the process ends when the host closes stdin.
  await createIncidentDeskServer(options).connect(new StdioServerTransport());
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ArgsError) {
    process.stderr.write(`incident-desk: ${error.message}\n${USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`incident-desk: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
