/** @module The stdio downstream edge: one host session over newline-delimited JSON-RPC on a readable and a writable stream. */

import type { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

import { RpcCode } from '../../protocol/errors.js';
import { classifyMessage, errorResponse } from '../../protocol/jsonrpc.js';
import type { JsonRpcId, JsonRpcMessage } from '../../protocol/jsonrpc.js';

/*
 * The gateway side is typed structurally (a subset of GatewayHandle / HostChannel / HostSession in
 * gateway/contracts.ts) so that transport/ depends on protocol/ only.
 */

/** What the edge gives the gateway to reach the host. */
export interface StdioHostChannel {
  send(message: JsonRpcMessage, relatedRequestId?: JsonRpcId): void;
  onSessionClosed?(): void;
  readonly transport?: 'stdio';
}

export interface StdioHostSession {
  receive(message: JsonRpcMessage): void;
  close(): Promise<void>;
}

export interface StdioSessionOpener {
  openSession(channel: StdioHostChannel): StdioHostSession;
}

/** The slice of the gateway Logger this edge writes to. */
export interface StdioLogger {
  log(level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>): void;
}

export interface ServeStdioOptions {
  input: Readable;
  output: Writable;
  logger: StdioLogger;
  /** Longest accepted line, in characters; a longer line gets one -32700 and is skipped. Default 16 Mi. */
  maxLineLength?: number;
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

const DEFAULT_MAX_LINE = 16 * 1024 * 1024;
const DEFAULT_DRAIN_MS = 10_000;

/**
 * Serves exactly one host session: each input line is one JSON-RPC message for the gateway;
 * every message the gateway sends, related to a request or not, is one output line.
 */
export function serveStdio(gateway: StdioSessionOpener, options: ServeStdioOptions): StdioEdge {
  const { input, output, logger } = options;
  const maxLine = options.maxLineLength ?? DEFAULT_MAX_LINE;
  const decoder = new StringDecoder('utf8');
  let buffer = '';
  /** True while the rest of an over-long line is being skipped. */
  let skipping = false;
  let ended = false;
  /** Host requests not answered yet (their ids). */
  const inFlight = new Set<JsonRpcId>();
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
    if (closeSession) {
      await session.close().catch((error: unknown) => logger.log('warn', 'closing the host session failed', { error: String(error) }));
    }
    finish();
    return done;
  }

  function handleLine(line: string): void {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      write(errorResponse(null, { code: RpcCode.ParseError, message: 'Parse error: the line is not valid JSON' }));
      return;
    }
    if (Array.isArray(value)) {
      write(errorResponse(null, { code: RpcCode.InvalidRequest, message: 'Invalid Request: batches are not supported' }));
      return;
    }
    const classified = classifyMessage(value);
    if (classified.kind === 'invalid') {
      write(errorResponse(classified.id, { code: RpcCode.InvalidRequest, message: `Invalid Request: ${classified.reason}` }));
      return;
    }
    if (classified.kind === 'request') inFlight.add(classified.message.id);
    try {
      session.receive(classified.message);
    } catch (error) {
      logger.log('error', 'the gateway failed to take a message', { error: error instanceof Error ? error.message : String(error) });
      if (classified.kind === 'request') {
        write(errorResponse(classified.message.id, { code: RpcCode.InternalError, message: 'Internal error' }));
      }
    }
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
