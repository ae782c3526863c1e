/** @module Parses the queries of GET /api/questions and GET /api/runs (repeatable or comma-separated `state`, numeric `limit`) into the stores' filters. */

import type { QuestionFilter } from '../../questions/question.js';
import type { RunFilter } from '../../composite/run-store.js';
import { listQuerySchema, runListQuerySchema } from './api-schemas.js';
import type { FieldProblem } from './zod-problem.js';
import { firstProblem } from './zod-problem.js';

export type ListQueryResult = { ok: true; filter: QuestionFilter } | { ok: false; problem: FieldProblem };
export type RunListQueryResult = { ok: true; filter: RunFilter } | { ok: false; problem: FieldProblem };

/** Query parameters as the schemas read them: `state` a list, `limit` a number when it is digits, anything else one string. */
function rawQuery(params: URLSearchParams): { ok: true; raw: Record<string, unknown> } | { ok: false; problem: FieldProblem } {
  const raw: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    if (key === 'state') {
      raw.state = values.flatMap((value) => value.split(',')).map((s) => s.trim()).filter((s) => s !== '');
      continue;
    }
    if (values.length > 1) return { ok: false, problem: { field: key, message: 'is given more than once' } };
    const value = values[0] ?? '';
    raw[key] = key === 'limit' && /^\d{1,9}$/.test(value) ? Number(value) : value;
  }
  return { ok: true, raw };
}

export function parseListQuery(params: URLSearchParams): ListQueryResult {
  const raw = rawQuery(params);
  if (!raw.ok) return raw;
  const parsed = listQuerySchema.safeParse(raw.raw);
  if (!parsed.success) return { ok: false, problem: firstProblem(parsed.error) };
  const { state, ...rest } = parsed.data;
  const filter: QuestionFilter = { ...rest };
  if (state !== undefined) filter.state = state;
  return { ok: true, filter };
}

export function parseRunListQuery(params: URLSearchParams): RunListQueryResult {
  const raw = rawQuery(params);
  if (!raw.ok) return raw;
  const parsed = runListQuerySchema.safeParse(raw.raw);
  if (!parsed.success) return { ok: false, problem: firstProblem(parsed.error) };
  const { state, ...rest } = parsed.data;
  const filter: RunFilter = { ...rest };
  if (state !== undefined) filter.state = state;
  return { ok: true, filter };
}
