/** @module incident-desk/http-sessions: sessionful Streamable HTTP at `/mcp`, one server and one transport per session. */
import { randomUUID } from 'node:crypto';

import { isInitializeRequest, type McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

interface Session {
  readonly server: McpServer;
  readonly transport: WebStandardStreamableHTTPServerTransport;
}

export interface SessionRouter {
  handle(request: Request): Promise<Response>;
  readonly sessionCount: number;
  closeAll(): Promise<void>;
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });
}

function isInitializeBody(body: unknown): boolean {
  return Array.isArray(body) ? body.some((message) => isInitializeRequest(message)) : isInitializeRequest(body);
}

/**
 * Routes by `Mcp-Session-Id`: an `initialize` without one opens a session, a known id reaches its transport,
 * an unknown id gets 404 (so hosts re-initialize) and a missing one on anything else gets 400.
 * Host/Origin and the path are checked before it (http-listen).
 */
export function createSessionRouter(createServer: () => McpServer): SessionRouter {
  const sessions = new Map<string, Session>();

  async function openSession(request: Request, body: unknown): Promise<Response> {
    const server = createServer();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { server, transport }),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    await server.connect(transport);
    server.server.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    const response = await transport.handleRequest(request, { parsedBody: body });
    if (transport.sessionId === undefined || !sessions.has(transport.sessionId)) await server.close();
    return response;
  }

  return {
    get sessionCount() {
      return sessions.size;
    },
    async handle(request) {
      const sessionId = request.headers.get('mcp-session-id');
      if (sessionId !== null) {
        const session = sessions.get(sessionId);
        if (!session) return jsonRpcError(404, -32001, 'Session not found');
        return session.transport.handleRequest(request);
      }
      if (request.method !== 'POST') return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
      let body: unknown;
      try {
        body = JSON.parse(await request.text());
      } catch {
        return jsonRpcError(400, -32700, 'Parse error: the body is not JSON');
      }
      if (!isInitializeBody(body)) return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
      return openSession(request, body);
    },
    async closeAll() {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(open.map((session) => session.server.close()));
    },
  };
}
