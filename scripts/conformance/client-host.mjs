/**
 * @module scripts/conformance/client-host: the "client" a conformance client scenario runs: Switchboard as the MCP
 * client of the scenario's server, driven by a scripted host over stdio.
 *
 * Usage (by the suite, which appends the server URL): node client-host.mjs [--host-revision R] <serverUrl>
 *
 * It writes a config with the server as the one upstream (with an OAuth `auth` block, so the auth scenarios find the
 * gateway ready to authorize: see client-config.mjs), starts `switchboard stdio`, and plays a plain host
 * pinned to revision R (default 2025-11-25): initialize, tools/list, then a tools/call of every tool with
 * arguments made from its input schema. It answers what the gateway relays: an elicitation is accepted with
 * the defaults of the schema it received (a SEP-1034 host pre-fills them; a 2025-06-18 host sees only boolean
 * defaults, and the gateway supplies the rest), sampling gets a short text, roots/list an empty list.
 * Exit code 0 when every step got a result, 1 otherwise.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { clientScenarioConfig } from './client-config.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEADLINE_MS = 25_000;

function parseArgs(argv) {
  const options = { hostRevision: '2025-11-25', serverUrl: undefined };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--host-revision') options.hostRevision = argv[++i];
    else options.serverUrl = argv[i];
  }
  if (!options.serverUrl) throw new Error('usage: client-host.mjs [--host-revision R] <serverUrl>');
  return options;
}

/** What a host at `revision` declares: elicitation only from 2025-06-18 on, the form mode spelled out at 2025-11-25. */
function hostCapabilities(revision) {
  if (revision >= '2025-11-25') return { elicitation: { form: {} }, sampling: {}, roots: {} };
  if (revision >= '2025-06-18') return { elicitation: {}, sampling: {}, roots: {} };
  return { sampling: {}, roots: {} };
}

/** A value for one input-schema property: its default, its first enum member, or a plain value of its type. */
function sampleValue(schema, index) {
  if (schema && 'default' in schema) return schema.default;
  if (Array.isArray(schema?.enum) && schema.enum.length > 0) return schema.enum[0];
  switch (schema?.type) {
    case 'number':
    case 'integer':
      return index + 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return 'conformance';
  }
}

function sampleArguments(inputSchema) {
  const properties = inputSchema?.properties ?? {};
  const required = new Set(inputSchema?.required ?? Object.keys(properties));
  const args = {};
  Object.entries(properties).forEach(([name, schema], index) => {
    if (required.has(name)) args[name] = sampleValue(schema, index);
  });
  return args;
}

/** The host's answer to an elicitation: accept, pre-filled with the defaults of the schema it was shown. */
function answerElicitation(params) {
  const content = {};
  for (const [name, schema] of Object.entries(params?.requestedSchema?.properties ?? {})) {
    if (schema && 'default' in schema) content[name] = schema.default;
  }
  return { action: 'accept', content };
}

function answerRequest(method, params) {
  switch (method) {
    case 'elicitation/create':
      return answerElicitation(params);
    case 'sampling/createMessage':
      return { role: 'assistant', content: { type: 'text', text: 'conformance host reply' }, model: 'conformance-host', stopReason: 'endTurn' };
    case 'roots/list':
      return { roots: [] };
    case 'ping':
      return {};
    default:
      return undefined;
  }
}

async function main() {
  const { hostRevision, serverUrl } = parseArgs(process.argv.slice(2));
  const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-client-scenario-'));
  const configPath = join(dir, 'switchboard.yaml');
  await writeFile(configPath, clientScenarioConfig(serverUrl, context));

  const gateway = spawn(process.execPath, [join(ROOT, 'bin/switchboard.mjs'), 'stdio', '--config', configPath], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, SWITCHBOARD_LOG: process.env.SWITCHBOARD_LOG ?? 'debug' },
  });
  const exited = new Promise((resolve) => gateway.once('exit', resolve));
  const pending = new Map();
  let nextId = 1;
  const send = (message) => gateway.stdin.write(`${JSON.stringify(message)}\n`);
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject, method });
      send({ jsonrpc: '2.0', id, method, params });
    });

  createInterface({ input: gateway.stdout }).on('line', (line) => {
    if (!line.trim()) return;
    const message = JSON.parse(line);
    if ('method' in message && 'id' in message) {
      const result = answerRequest(message.method, message.params);
      console.log(`host: answering ${message.method} ${JSON.stringify(result ?? 'method not found')}`);
      if (result === undefined) send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `host does not handle ${message.method}` } });
      else send({ jsonrpc: '2.0', id: message.id, result });
      return;
    }
    if ('method' in message) {
      console.log(`host: notification ${message.method}`);
      return;
    }
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if ('error' in message) waiter.reject(new Error(`${waiter.method}: ${message.error.code} ${message.error.message}`));
    else waiter.resolve(message.result);
  });

  const deadline = setTimeout(() => {
    console.error(`client-host: gave up after ${DEADLINE_MS} ms`);
    gateway.kill('SIGTERM');
    process.exit(1);
  }, DEADLINE_MS);

  let failed = false;
  try {
    const init = await request('initialize', {
      protocolVersion: hostRevision,
      capabilities: hostCapabilities(hostRevision),
      clientInfo: { name: 'switchboard-conformance-host', version: '1.0.0' },
    });
    console.log(`host: initialized at ${init.protocolVersion} with ${init.serverInfo?.name}`);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const { tools = [] } = await request('tools/list', {});
    console.log(`host: tools ${tools.map((tool) => tool.name).join(', ') || '(none)'}`);
    for (const tool of tools) {
      try {
        const result = await request('tools/call', { name: tool.name, arguments: sampleArguments(tool.inputSchema) });
        console.log(`host: ${tool.name} -> ${JSON.stringify(result.content ?? result)}`);
        if (result.isError) failed = true;
      } catch (error) {
        console.log(`host: ${tool.name} failed: ${error.message}`);
        failed = true;
      }
    }
  } catch (error) {
    console.error(`client-host: ${error.message}`);
    failed = true;
  } finally {
    clearTimeout(deadline);
    gateway.stdin.end();
    const timer = setTimeout(() => gateway.kill('SIGTERM'), 3000);
    await exited;
    clearTimeout(timer);
    await rm(dir, { recursive: true, force: true });
  }
  return failed ? 1 : 0;
}

process.exitCode = await main().catch((error) => {
  console.error(`client-host: ${error instanceof Error ? error.message : String(error)}`);
  return 1;
});
