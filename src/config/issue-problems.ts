/** @module Turning zod issues into config problems: a path and a short phrase that reads well after it. */

import type { z } from 'zod';
import { valueAt } from './config-path.js';
import { describeValue } from './describe-value.js';
import type { ConfigPath } from './config-path.js';
import { allowedKeysAt, closestKey } from './schema-keys.js';

export interface ConfigProblem {
  /** The key it is about (its line is reported). */
  path: ConfigPath;
  /** The path shown, when not `path` (a composite step's problems show the step and name the key in the message). */
  shownPath?: ConfigPath;
  message: string;
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a map',
  record: 'a map',
};

function typeMessage(expected: string, value: unknown): string {
  if (value === undefined) return 'is required';
  const quoteHint = expected === 'string' && (typeof value === 'number' || typeof value === 'boolean') ? `; quote it: "${String(value)}"` : '';
  return `must be ${EXPECTED[expected] ?? expected} (got ${describeValue(value)}${quoteHint})`;
}

function boundMessage(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig, value: unknown): string {
  const small = issue.code === 'too_small';
  const limit = small ? (issue as z.core.$ZodIssueTooSmall).minimum : (issue as z.core.$ZodIssueTooBig).maximum;
  const inclusive = issue.inclusive !== false;
  if (issue.origin === 'string' && small && Number(limit) <= 1) return 'must not be empty';
  if (issue.origin === 'array') return `must have ${small ? 'at least' : 'at most'} ${String(limit)} entries`;
  const relation = small ? (inclusive ? 'at least' : 'more than') : inclusive ? 'at most' : 'less than';
  return `must be ${relation} ${String(limit)} (got ${describeValue(value)})`;
}

/** One problem per zod issue (one per key for unknown keys), with `data` the validated input. */
export function problemsFromIssues(issues: readonly z.core.$ZodIssue[], data: unknown, schema: z.ZodType): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const issue of issues) {
    const path = issue.path.filter((segment): segment is string | number => typeof segment !== 'symbol');
    const value = valueAt(data, path);
    switch (issue.code) {
      case 'unrecognized_keys': {
        const allowed = allowedKeysAt(schema, path);
        for (const key of issue.keys) {
          const guess = closestKey(key, allowed);
          const hint = guess !== undefined ? `did you mean ${guess}?` : `allowed: ${allowed.join(', ')}`;
          problems.push({ path: [...path, key], message: `unknown key (${hint})` });
        }
        break;
      }
      case 'invalid_type':
        problems.push({ path, message: typeMessage(issue.expected, value) });
        break;
      case 'invalid_value':
        problems.push({ path, message: `must be one of ${issue.values.map(String).join(', ')} (got ${describeValue(value)})` });
        break;
      case 'too_small':
      case 'too_big':
        problems.push({ path, message: boundMessage(issue, value) });
        break;
      case 'invalid_key':
        // The path ends with the key itself; the key schema's own message says what is wrong.
        problems.push({ path, message: issue.issues[0]?.message ?? 'is not an allowed key' });
        break;
      case 'invalid_union': {
        // A value of the right kind for one alternative (a map, not a path) gets that alternative's own problems.
        const deeper = issue.errors.filter((branch) => branch.length > 0 && branch.every((inner) => inner.path.length > 0));
        if (deeper.length === 1) {
          const branch = (deeper[0] as z.core.$ZodIssue[]).map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }) as z.core.$ZodIssue);
          problems.push(...problemsFromIssues(branch, data, schema));
          break;
        }
        problems.push({ path, message: value === undefined ? issue.message : `${issue.message} (got ${describeValue(value)})` });
        break;
      }
      case 'invalid_format':
        problems.push({ path, message: value === undefined ? issue.message : `${issue.message} (got ${describeValue(value)})` });
        break;
      default:
        problems.push({ path, message: issue.message });
    }
  }
  return problems;
}
