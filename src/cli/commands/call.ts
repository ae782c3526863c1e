/**
 * @module `switchboard call TOOL [JSON-ARGS]`: a terminal MCP host. Calls one tool through a running gateway, asks the
 * tool's elicitations here (form on stderr, answers from stdin), shows progress, prints the result on stdout.
 */

import { RpcCode } from '../../protocol/errors.js';
import type { JsonObject, JsonRpcId } from '../../protocol/jsonrpc.js';
import { isObject } from '../../protocol/jsonrpc.js';
import { parseCommandLine } from '../args.js';
import type { CliIo } from '../cli-io.js';
import { UsageError } from '../cli-io.js';
import { ConnectError, displayUrl, EXIT_CANNOT_CONNECT } from '../connect-error.js';
import { CALL_HELP } from '../help.js';
import type { ServerMessage } from '../mcp-host/http-mcp-client.js';
import { HttpMcpClient, McpHttpError } from '../mcp-host/http-mcp-client.js';
import { isToolError, logLine, progressLine, rpcErrorText, toolResultText } from '../mcp-host/tool-result-text.js';
import { URL_ENV } from '../questions/operator-options.js';
import type { ElicitAnswer } from '../terminal-form/elicitation-form.js';
import { askElicitation } from '../terminal-form/elicitation-form.js';
import type { Prompter } from '../terminal-form/line-prompter.js';
import { createPrompter } from '../terminal-form/line-prompter.js';
import { safeText } from '../terminal-text.js';

export const DEFAULT_MCP_URL = 'http://127.0.0.1:3939/mcp';
/** The revision this host speaks, and what it declares: form elicitation only. */
export const CALL_PROTOCOL_VERSION = '2025-11-25';
export const CALL_CAPABILITIES: JsonObject = { elicitation: { form: {} } };
const PROGRESS_TOKEN = 'switchboard-call';

const OPTIONS = {
  url: { type: 'string' },
  'no-input': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The MCP endpoint: `--url`, else $SWITCHBOARD_URL, else the default; a URL without a path gets `/mcp`. */
export function mcpEndpoint(flag: string | undefined, env: Record<string, string | undefined>): URL {
  const fromEnv = flag === undefined && env[URL_ENV] !== undefined && env[URL_ENV] !== '';
  const text = flag ?? (fromEnv ? (env[URL_ENV] as string) : DEFAULT_MCP_URL);
  const name = fromEnv ? URL_ENV : '--url';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`call: ${name} ${JSON.stringify(text)} is not a URL (e.g. ${DEFAULT_MCP_URL})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`call: ${name} must be an http:// or https:// URL`);
  if (url.pathname === '/') url.pathname = '/mcp';
  return url;
}

/** The tool's arguments: a JSON object (default `{}`). */
export function parseToolArguments(text: string | undefined): JsonObject {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`call: JSON-ARGS is not JSON: ${(error as Error).message}`);
  }
  if (!isObject(value)) throw new UsageError('call: JSON-ARGS must be a JSON object, e.g. \'{"service":"payments-api"}\'');
  return value;
}

function isTerminal(stream: unknown): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}

interface CallSession {
  client: HttpMcpClient;
  prompter: Prompter;
  io: CliIo;
  noInput: boolean;
}

/**
 * Asks an elicitation until the server takes the answer. A 400 -32602 (the answer breaks the schema) is asked
 * again for a server that keeps the question open; any other 400 means the question is gone (Switchboard
 * settles it at the first invalid answer and then refuses the id): shown, not asked again.
 */
async function answerElicitation(session: CallSession, id: JsonRpcId, params: JsonObject): Promise<void> {
  for (;;) {
    let answer: ElicitAnswer;
    if (session.noInput) {
      const message = typeof params.message === 'string' ? params.message : '';
      session.io.stderr.write(`\n${safeText(message)}\n(answered cancel: --no-input)\n`);
      answer = { action: 'cancel' };
    } else {
      answer = await askElicitation(params, session.prompter);
    }
    try {
      await session.client.respond(id, { result: { ...answer } });
      return;
    } catch (error) {
      if (!(error instanceof McpHttpError) || error.status !== 400 || session.noInput) throw error;
      if (error.rpcError?.code !== RpcCode.InvalidParams) {
        session.io.stderr.write(`  ! ${safeText(error.message)}\n`);
        return;
      }
      session.io.stderr.write(`  ! ${safeText(error.message)}: answer again\n`);
    }
  }
}

async function onServerMessage(session: CallSession, message: ServerMessage): Promise<void> {
  switch (message.kind) {
    case 'notification': {
      const params = message.message.params ?? {};
      if (message.message.method === 'notifications/progress') session.io.stderr.write(`${progressLine(params)}\n`);
      else if (message.message.method === 'notifications/message') session.io.stderr.write(`${logLine(params)}\n`);
      return;
    }
    case 'request': {
      const { id, method, params = {} } = message.message;
      if (method === 'elicitation/create') return answerElicitation(session, id, params);
      if (method === 'ping') return session.client.respond(id, { result: {} });
      return session.client.respond(id, { error: { code: RpcCode.MethodNotFound, message: `switchboard call does not answer ${method} (it declares form elicitation only)` } });
    }
    default:
      return;
  }
}

export async function callCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine('call', argv, OPTIONS);
  if (values.help) {
    io.stdout.write(CALL_HELP);
    return 0;
  }
  const [tool, rawArgs, extra] = positionals;
  if (tool === undefined || tool === '') throw new UsageError('call: missing the tool name (try: switchboard call --help)');
  if (extra !== undefined) throw new UsageError(`call: unexpected argument ${extra} (try: switchboard call --help)`);
  const args = parseToolArguments(rawArgs);
  const url = mcpEndpoint(values.url, io.env);

  const prompter = createPrompter(io.stdin, io.stderr, { echo: !isTerminal(io.stdin) });
  let client: HttpMcpClient | undefined;
  try {
    client = await HttpMcpClient.connect(url, { protocolVersion: CALL_PROTOCOL_VERSION, capabilities: CALL_CAPABILITIES, clientInfo: { name: 'switchboard-call', version: '1.0.0' } });
    const session: CallSession = { client, prompter, io, noInput: values['no-input'] === true };
    const response = await client.request('tools/call', { name: tool, arguments: args, _meta: { progressToken: PROGRESS_TOKEN } }, (message) => onServerMessage(session, message));
    if ('error' in response) {
      io.stderr.write(`switchboard: ${safeText(tool)} failed: ${rpcErrorText(response.error)}\n`);
      return 1;
    }
    io.stdout.write(values.json ? `${JSON.stringify(response.result, null, 2)}\n` : toolResultText(response.result));
    if (isToolError(response.result)) {
      io.stderr.write(`switchboard: ${safeText(tool)} reported an error (isError)\n`);
      return 1;
    }
    return 0;
  } catch (error) {
    if (error instanceof ConnectError) {
      io.stderr.write(`switchboard: ${error.message}\n`);
      return EXIT_CANNOT_CONNECT;
    }
    if (error instanceof McpHttpError) {
      io.stderr.write(`switchboard: ${displayUrl(url)}: ${safeText(error.message)}\n`);
      return 1;
    }
    throw error;
  } finally {
    prompter.close();
    await client?.close();
  }
}
