/** @module The PostgreSQL SELECTs behind `list` (questions and runs): the filter's conditions as parameters, newest first, ties broken by insertion order. */

import type { NormalizedFilter } from '../list-filter.js';
import type { NormalizedRunFilter } from '../run-row.js';

/** Conditions on one column each. */
const EQUALS: readonly [keyof NormalizedFilter, string][] = [
  ['upstream', 'upstream'],
  ['tool', 'tool'],
  ['answeredBy', 'answered_by_kind'],
  ['method', 'method'],
];

class Query {
  readonly where: string[] = [];
  readonly params: unknown[] = [];

  /** Adds a parameter and returns its placeholder. */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** The rows of `table` (selected as `select`) meeting every condition and strictly `before`, newest first, at most `limit`. */
  newestFirst(select: string, table: string, timeColumn: string, before: string | undefined, limit: number): { sql: string; params: unknown[] } {
    if (before !== undefined) this.where.push(`${timeColumn} < ${this.param(before)}`);
    const clause = this.where.length === 0 ? '' : ` WHERE ${this.where.join(' AND ')}`;
    // seq breaks ties: among rows of the same millisecond, the one written last comes first.
    return { sql: `SELECT ${select} FROM ${table}${clause} ORDER BY ${timeColumn} DESC, seq DESC LIMIT ${this.param(limit)}`, params: this.params };
  }
}

/** The questions' SQL and its parameters; an empty list of states matches nothing. */
export function pgListQuery(select: string, table: string, filter: NormalizedFilter): { sql: string; params: unknown[] } {
  const query = new Query();
  if (filter.states !== undefined) query.where.push(`state = ANY(${query.param(filter.states)}::text[])`);
  for (const [key, column] of EQUALS) {
    const value = filter[key];
    if (typeof value === 'string') query.where.push(`${column} = ${query.param(value)}`);
  }
  return query.newestFirst(select, table, 'created_at', filter.before, filter.limit);
}

/** The runs' SQL and its parameters; an empty list of states matches nothing. */
export function pgRunListQuery(select: string, table: string, filter: NormalizedRunFilter): { sql: string; params: unknown[] } {
  const query = new Query();
  if (filter.states !== undefined) query.where.push(`state = ANY(${query.param(filter.states)}::text[])`);
  if (filter.composite !== undefined) query.where.push(`composite = ${query.param(filter.composite)}`);
  return query.newestFirst(select, table, 'started_at', filter.before, filter.limit);
}
