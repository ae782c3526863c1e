/** @module The stdio downstream edge: one host session over newline-delimited JSON-RPC on a readable and a writable stream. */

import type { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

import { RpcCode } from '../../protocol/errors.js';
import { classifyMessage, errorResponse } from '../../protocol/jsonrpc.js';
import type { JsonRpcId, JsonRpcMessage, JsonRpcRequest, JsonRpcResponse } from '../../protocol/jsonrpc.js';
import { headerSource } from '../../protocol/header-source.js';
import { DEFAULT_MAX_JSON_DEPTH, jsonDepthMessage, parseJsonWithin } from '../../protocol/json-depth.js';
import { checkModernRequest } from '../../protocol/modern-request-check.js';
import { classifyRequestEra } from '../../protocol/request-era.js';
import type { Logger } from '../../core/log.js';
import type { HostChannel, HostSession, ModernExchange, ModernRequestContext, ModernSink, Verdict } from '../../ports/host-contracts.js';

/** What the edge gives the gateway to reach the host (the ports' HostChannel). */
export type StdioHostChannel = HostChannel;

/** The slice of a host session this edge uses. */
export type StdioHostSession = Pick<HostSession, 'receive' | 'close'>;

/** A 2026-07-28 request being served. */
export type StdioModernExchange = ModernExchange;

/** The slice of the gateway this edge uses: a session per host, and 2026-07-28 lines served statelessly. */
export interface StdioSessionOpener {
  openSession(channel: StdioHostChannel): StdioHostSession;
  serveModern?(request: JsonRpcRequest, context: ModernRequestContext, sink: ModernSink): StdioModernExchange;
}

/** The logger this edge writes to. */
export type StdioLogger = Pick<Logger, 'log'>;

export interface ServeStdioOptions {
  input: Readable;
  output: Writable;
  logger: StdioLogger;
  /** Longest accepted line, in characters; a longer line gets one -32700 and is skipped. Default 16 Mi. */
  maxLineLength?: number;
  /** Deepest nesting of arrays and objects accepted in a line (`http.maxJsonDepth`); deeper gets -32600. Default 64. */
  maxJsonDepth?: number;
  /**
   * After the input closes, how long to wait for answers to host requests still in flight before
   * ending the session (so `printf ... | switchboard stdio` gets every answer). Default 10 s; 0 ends at once.
   */
  drainTimeoutMs?: number;
}

export interface StdioEdge {
  /** Resolves once the session has ended: input closed, output failed, the gateway ended it, or close(). */
  readonly done: Promise<void>;
  /** Stops reading and ends the host session. */
  close(): Promise<void>;
}

/** stdio has no headers: the era is read from the message alone. */
const NO_HEADERS = headerSource({});

const DEFAULT_MAX_LINE = 16 * 1024 * 1024;
const DEFAULT_DRAIN_MS = 10_000;

/**
 * Serves exactly one host session: each input line is one JSON-RPC message for the gateway;
 * every message the gateway sends, related to a request or not, is one output line.
 */
export function serveStdio(gateway: StdioSessionOpener, options: ServeStdioOptions): StdioEdge {
  const { input, output, logger } = options;
  const maxLine = options.maxLineLength ?? DEFAULT_MAX_LINE;
  const maxJsonDepth = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
  const decoder = new StringDecoder('utf8');
  let buffer = '';
  /** True while the rest of an over-long line is being skipped. */
  let skipping = false;
  let ended = false;
  /** Host requests not answered yet (their ids). */
  const inFlight = new Set<JsonRpcId>();
  /** 2026-07-28 requests being served, by id: `notifications/cancelled` (or the end of input) cancels them. */
  const modernInFlight = new Map<string, ModernEntry>();
  let drained: (() => void) | undefined;
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });

  function write(message: JsonRpcMessage): void {
    if (ended || output.destroyed || output.writableEnded) {
      logger.log('debug', 'stdio: dropped a message after the session ended');
      return;
    }
    output.write(`${JSON.stringify(message)}\n`);
    if (!('method' in message) && message.id !== null && inFlight.delete(message.id) && inFlight.size === 0) drained?.();
  }

  const session = gateway.openSession({
    send: (message) => write(message),
    onSessionClosed: () => void end('closed by the gateway', false),
    transport: 'stdio',
  });

  async function end(reason: string, closeSession: boolean): Promise<void> {
    if (ended) return done;
    ended = true;
    drained?.();
    input.off('data', onData);
    input.off('end', onEnd);
    input.off('close', onEnd);
    input.off('error', onInputError);
    output.off('error', onOutputError);
    logger.log('info', 'stdio host session ended', { reason });
    for (const exchange of modernInFlight.values()) exchange.cancel('the stdio host went away');
    modernInFlight.clear();
    if (closeSession) {
      await session.close().catch((error: unknown) => logger.log('warn', 'closing the host session failed', { error: String(error) }));
    }
    finish();
    return done;
  }

  function handleLine(line: string): void {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text.trim() === '') return;
    const parsed = parseJsonWithin(text, maxJsonDepth);
    if (!parsed.ok) {
      write(
        errorResponse(
          null,
          parsed.problem === 'too-deep'
            ? { code: RpcCode.InvalidRequest, message: jsonDepthMessage(parsed.maxDepth) }
            : { code: RpcCode.ParseError, message: 'Parse error: the line is not valid JSON' },
        ),
      );
      return;
    }
    const { value } = parsed;
    if (Array.isArray(value)) {
      write(errorResponse(null, { code: RpcCode.InvalidRequest, message: 'Invalid Request: batches are not supported' }));
      return;
    }
    const classified = classifyMessage(value);
    if (classified.kind === 'invalid') {
      write(errorResponse(classified.id, { code: RpcCode.InvalidRequest, message: `Invalid Request: ${classified.reason}` }));
      return;
    }
    const era = classifyRequestEra(value, NO_HEADERS);
    if (era.era === 'refused') {
      write(errorResponse(era.id, era.error));
      return;
    }
    if (classified.kind === 'notification' && classified.message.method === 'notifications/cancelled') {
      const requestId = classified.message.params?.requestId;
      const modern = modernInFlight.get(keyOf(requestId));
      if (modern) {
        modernInFlight.delete(keyOf(requestId));
        modern.cancel(typeof classified.message.params?.reason === 'string' ? classified.message.params.reason : 'cancelled by the host');
        // A cancelled request gets no answer: nothing is left to wait for.
        if (inFlight.delete(requestId as JsonRpcId) && inFlight.size === 0) drained?.();
        return;
      }
    }
    if (classified.kind === 'request' && inFlight.has(classified.message.id)) {
      const { id } = classified.message;
      write(errorResponse(id, { code: RpcCode.InvalidRequest, message: `Invalid Request: id ${JSON.stringify(id)} is already in flight` }));
      return;
    }
    if (era.era === 'modern' && classified.kind === 'request') {
      serveModern(classified.message);
      return;
    }
    if (classified.kind === 'request') inFlight.add(classified.message.id);
    try {
      const verdict = session.receive(classified.message);
      if (classified.kind === 'response') refuseAnswer(classified.message, verdict);
    } catch (error) {
      logger.log('error', 'the gateway failed to take a message', { error: error instanceof Error ? error.message : String(error) });
      if (classified.kind === 'request') {
        write(errorResponse(classified.message.id, { code: RpcCode.InternalError, message: 'Internal error' }));
      }
    }
  }

  /** An answer that breaks the schema it was asked with gets an error line with its id, as HTTP gets 400 (its question is settled by the session). */
  function refuseAnswer(message: JsonRpcResponse, verdict: Verdict): void {
    if (verdict.ok || verdict.kind !== 'invalid') return;
    write(errorResponse(message.id, { code: RpcCode.InvalidParams, message: `Invalid params: ${verdict.reason}` }));
  }

  /** A 2026-07-28 request: the envelope checked, then served on its own (no session), its answer written as a line. */
  function serveModern(request: JsonRpcRequest): void {
    const checked = checkModernRequest(request, undefined);
    if (!checked.ok || gateway.serveModern === undefined) {
      write(errorResponse(request.id, checked.ok ? { code: RpcCode.MethodNotFound, message: 'Revision 2026-07-28 is not served here' } : checked.error));
      return;
    }
    const key = keyOf(request.id);
    inFlight.add(request.id);
    // Done once answered or cancelled: nothing more is written for it.
    const entry: ModernEntry = { done: false, cancel: () => undefined };
    const exchange = gateway.serveModern(request, { principal: 'stdio', envelope: checked.envelope, transport: 'stdio' }, {
      notify: (message) => {
        if (!entry.done) write(message);
      },
      respond: (message) => {
        if (entry.done) return;
        entry.done = true;
        modernInFlight.delete(key);
        write(message);
      },
    });
    entry.cancel = (reason) => {
      entry.done = true;
      exchange.cancel(reason);
    };
    if (!entry.done) modernInFlight.set(key, entry);
  }

  function onData(chunk: Buffer | string): void {
    buffer += typeof chunk === 'string' ? chunk : decoder.write(chunk);
    for (let newline = buffer.indexOf('\n'); newline !== -1 && !ended; newline = buffer.indexOf('\n')) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (skipping) skipping = false;
      else handleLine(line);
    }
    if (buffer.length > maxLine) {
      if (!skipping) write(errorResponse(null, { code: RpcCode.ParseError, message: `Parse error: line longer than ${maxLine} characters` }));
      skipping = true;
      buffer = '';
    }
  }

  function onEnd(): void {
    if (ended || drained !== undefined) return;
    buffer += decoder.end();
    if (!skipping && buffer.trim() !== '') handleLine(buffer);
    buffer = '';
    const drainMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_MS;
    if (inFlight.size === 0 || drainMs <= 0) {
      void end('input closed', true);
      return;
    }
    logger.log('debug', 'stdio: input closed, waiting for answers in flight', { requests: inFlight.size });
    const timer = setTimeout(() => drained?.(), drainMs);
    drained = () => {
      clearTimeout(timer);
      void end(inFlight.size === 0 ? 'input closed' : `input closed; ${inFlight.size} request(s) left unanswered`, true);
    };
  }

  function onInputError(error: Error): void {
    logger.log('warn', 'stdio input failed', { error: error.message });
    void end('input failed', true);
  }

  function onOutputError(error: Error): void {
    logger.log('warn', 'stdio output failed', { error: error.message });
    void end('output failed', true);
  }

  input.on('data', onData);
  input.on('end', onEnd);
  input.on('close', onEnd);
  input.on('error', onInputError);
  output.on('error', onOutputError);

  return {
    done,
    close: () => end('closed', true),
  };
}

interface ModernEntry {
  done: boolean;
  cancel(reason: string): void;
}

function keyOf(id: unknown): string {
  return `${typeof id}:${String(id)}`;
}
