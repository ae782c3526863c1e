/** @module The SELECTs behind `list` (questions and runs): one statement per combination of filter conditions, newest first, served by an index. */

import type { NormalizedFilter } from '../list-filter.js';
import type { NormalizedRunFilter } from '../run-row.js';

type Params = Record<string, string | number>;

/** Conditions on one column each, in the order they are written (the order does not change the plan). */
const EQUALS: readonly [keyof NormalizedFilter, string][] = [
  ['upstream', 'upstream'],
  ['tool', 'tool'],
  ['answeredBy', 'answered_by_kind'],
  ['method', 'method'],
];

/** The condition on `state`, its parameters added to `params`. */
function statesCondition(states: readonly string[], params: Params): string {
  // One state is an equality, which the (state, time) index serves in order; several are listed out.
  const names = states.map((state, index) => {
    params[`state${index}`] = state;
    return `@state${index}`;
  });
  return names.length === 1 ? `state = ${names[0]}` : `state IN (${names.join(', ')})`;
}

/** The rows of `table` that meet every condition of `where` (and come strictly `before`, by `timeColumn`), newest first, at most `@limit`. */
function newestFirst(table: string, timeColumn: string, where: string[], params: Params, before: string | undefined): { sql: string; params: Params } {
  if (before !== undefined) {
    where.push(`${timeColumn} < @before`);
    params.before = before;
  }
  const clause = where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`;
  // rowid breaks ties: among rows of the same millisecond, the one written last comes first.
  return { sql: `SELECT * FROM ${table}${clause} ORDER BY ${timeColumn} DESC, rowid DESC LIMIT @limit`, params };
}

/** The questions' SQL (its text depends only on which conditions are present and how many states, so statements can be reused) and its parameters. */
export function listQuery(filter: NormalizedFilter): { sql: string; params: Params } {
  const where: string[] = [];
  const params: Params = { limit: filter.limit };
  if (filter.states !== undefined) where.push(statesCondition(filter.states, params));
  for (const [key, column] of EQUALS) {
    const value = filter[key];
    if (typeof value !== 'string') continue;
    where.push(`${column} = @${key}`);
    params[key] = value;
  }
  return newestFirst('questions', 'created_at', where, params, filter.before);
}

/** The runs' SQL (its text depends only on which conditions are present and how many states, so statements can be reused) and its parameters. */
export function runListQuery(filter: NormalizedRunFilter): { sql: string; params: Params } {
  const where: string[] = [];
  const params: Params = { limit: filter.limit };
  // An empty list matches nothing.
  if (filter.states !== undefined) where.push(filter.states.length === 0 ? '0' : statesCondition(filter.states, params));
  if (filter.composite !== undefined) {
    where.push('composite = @composite');
    params.composite = filter.composite;
  }
  return newestFirst('runs', 'started_at', where, params, filter.before);
}
