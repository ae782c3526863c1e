/** @module What the PostgreSQL driver and the network report, in the store's words: a server we cannot use, and the reason without the password. */

import { DatabaseError } from 'pg';

/** The SQLSTATE of an error the server sent, or undefined for any other error. */
export function sqlState(error: unknown): string | undefined {
  return error instanceof DatabaseError ? error.code : undefined;
}

/** Whether `error` is the server refusing a unique key (SQLSTATE 23505) on `constraint`. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  return sqlState(error) === '23505' && (error as DatabaseError).constraint === constraint;
}

/**
 * SQLSTATE classes that mean the server cannot be used, whatever the statement: connection exceptions (08), refused
 * authorization (28), no such database (3D000), too many connections (53300), the server shutting down or starting (57P).
 */
const UNUSABLE_SERVER = /^(08|28|3D000|53300|57P)/;

/** Errors of the socket under the driver: the server is not there, or went away. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ECONNABORTED']);

/** What the driver says when a connection could not be made or was lost. */
const DRIVER_CONNECTION_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|connection timeout|Client has encountered a connection error|client password must be a string|SASL|self[- ]signed certificate|The server does not support SSL/i;

/** Whether `error` says the server cannot be reached or used (rather than that one statement failed). */
export function isConnectionFailure(error: unknown): boolean {
  const state = sqlState(error);
  if (state !== undefined) return UNUSABLE_SERVER.test(state);
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return (typeof code === 'string' && NETWORK_CODES.has(code)) || DRIVER_CONNECTION_MESSAGES.test(error.message);
}

/** Why a connection failed, as one short phrase for an operator (never the password: neither the server nor the driver repeats it). */
export function connectionReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const state = sqlState(error);
  if (state === '28P01') return `${error.message} (is the password in the store URL right?)`;
  if (state === '3D000') return `${error.message} (create it, or name another database in the store URL)`;
  if (state !== undefined) return `${error.message} (SQLSTATE ${state})`;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return `connection refused (${error.message}): is PostgreSQL running and listening there?`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `host not found (${error.message})`;
  if (/client password must be a string/.test(error.message)) return 'the server asks for a password and the store URL gives none';
  if (/timeout/i.test(error.message)) return `no connection within the connect timeout (${error.message})`;
  return error.message === '' ? (code ?? error.name) : error.message;
}

/**
 * Values the store's checks let through but PostgreSQL cannot hold: a NUL character in text (22021, 22P05) or a time
 * outside its calendar (22007, 22008: the year 0000 that `toISOString()` can write).
 */
const REFUSED_VALUE = /^(22021|22P05|22007|22008)$/;

/** What a failed statement means to a store: a server it cannot use, a value PostgreSQL refused, or something else (rethrown as it is). */
export function failureKind(error: unknown): 'unavailable' | 'refused-value' | undefined {
  if (isConnectionFailure(error)) return 'unavailable';
  const state = sqlState(error);
  return state !== undefined && REFUSED_VALUE.test(state) ? 'refused-value' : undefined;
}
