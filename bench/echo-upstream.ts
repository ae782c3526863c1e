/** @module Bench echo upstream: one tool `echo {text}`; stdio by default, sessionful Streamable HTTP with `--http HOST:PORT`. */

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

function createEchoServer(): McpServer {
  const server = new McpServer({ name: 'bench-echo', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool(
    'echo',
    { description: 'Returns its text argument.', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

async function serveStdio(): Promise<void> {
  await createEchoServer().connect(new StdioServerTransport());
}

function parseHostPort(value: string): { host: string; port: number } {
  const at = value.lastIndexOf(':');
  const port = Number(value.slice(at + 1));
  if (at <= 0 || !Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--http expects HOST:PORT, got ${value}`);
  return { host: value.slice(0, at), port };
}

async function serveHttp(listen: string): Promise<void> {
  const { host, port } = parseHostPort(listen);
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!req.url?.startsWith('/mcp')) {
      res.writeHead(404).end();
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = sessions.get(sessionId);
      if (transport) await transport.handleRequest(req, res);
      else res.writeHead(404, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Session not found"}}');
      return;
    }
    // No session header: only an initialize can succeed; the transport rejects anything else.
    const server = createEchoServer();
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
    if (!transport.sessionId) await server.close();
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      process.stderr.write(`echo upstream: ${String(error)}\n`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(port, host, resolve));
  const bound = http.address() as AddressInfo;
  process.stdout.write(`echo upstream listening on http://${host}:${bound.port}/mcp\n`);
}

const httpFlag = process.argv.indexOf('--http');
if (httpFlag >= 0) await serveHttp(process.argv[httpFlag + 1] ?? '');
else await serveStdio();
