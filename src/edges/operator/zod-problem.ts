/** @module Turns the first zod issue into what an error body says: the offending field and a sentence. */

import type { z } from 'zod';

export interface FieldProblem {
  field: string;
  message: string;
}

/** The first issue of a failed parse, with `field` as a dotted path (an unknown key names itself). */
export function firstProblem(error: z.ZodError): FieldProblem {
  const issue = error.issues[0];
  if (issue === undefined) return { field: '', message: 'is invalid' };
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    return { field: [...path, key].join('.'), message: `${JSON.stringify(key)} is not a known ${path.length === 0 ? 'field' : 'key'}` };
  }
  if (issue.code === 'invalid_value' && 'values' in issue) {
    return { field: path.join('.'), message: `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}` };
  }
  return { field: path.join('.'), message: issue.message };
}
