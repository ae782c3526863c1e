/** @module Cursor pagination of the gateway's merged lists (cursors are opaque to hosts). */

import { GatewayError } from '../../protocol/gateway-errors.js';

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

export function paginate<T>(items: T[], cursor: unknown, pageSize: number): Page<T> {
  const offset = cursor === undefined ? 0 : decodeCursor(cursor);
  if (offset > items.length) throw new GatewayError('GW_ERR_BAD_CURSOR', 'Invalid cursor: past the end of the list');
  const end = offset + pageSize;
  const page: Page<T> = { items: items.slice(offset, end) };
  if (end < items.length) page.nextCursor = encodeCursor(end);
  return page;
}

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

function decodeCursor(cursor: unknown): number {
  if (typeof cursor !== 'string') throw new GatewayError('GW_ERR_BAD_CURSOR', 'Invalid cursor: must be a string');
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const offset = (value as { o?: unknown }).o;
    if (typeof offset === 'number' && Number.isInteger(offset) && offset >= 0) return offset;
  } catch {
    // fall through
  }
  throw new GatewayError('GW_ERR_BAD_CURSOR', 'Invalid cursor');
}
