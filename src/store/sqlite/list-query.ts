/** @module The SELECT behind `list`: one statement per combination of filter conditions, newest first, served by an index. */

import type { NormalizedFilter } from '../list-filter.js';

/** Conditions on one column each, in the order they are written (the order does not change the plan). */
const EQUALS: readonly [keyof NormalizedFilter, string][] = [
  ['upstream', 'upstream'],
  ['tool', 'tool'],
  ['answeredBy', 'answered_by_kind'],
  ['method', 'method'],
];

/** The SQL (its text depends only on which conditions are present and how many states, so statements can be reused) and its parameters. */
export function listQuery(filter: NormalizedFilter): { sql: string; params: Record<string, string | number> } {
  const where: string[] = [];
  const params: Record<string, string | number> = { limit: filter.limit };
  if (filter.states !== undefined) {
    // One state is an equality, which the (state, created_at) index serves in order; several are listed out.
    const names = filter.states.map((state, index) => {
      params[`state${index}`] = state;
      return `@state${index}`;
    });
    where.push(names.length === 1 ? `state = ${names[0]}` : `state IN (${names.join(', ')})`);
  }
  for (const [key, column] of EQUALS) {
    const value = filter[key];
    if (typeof value !== 'string') continue;
    where.push(`${column} = @${key}`);
    params[key] = value;
  }
  if (filter.before !== undefined) {
    where.push('created_at < @before');
    params.before = filter.before;
  }
  const clause = where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`;
  // rowid breaks ties: among questions created in the same millisecond, the one written last comes first.
  return { sql: `SELECT * FROM questions${clause} ORDER BY created_at DESC, rowid DESC LIMIT @limit`, params };
}
