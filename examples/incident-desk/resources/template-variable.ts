/** @module incident-desk/resources/template-variable: reads one URI-template variable as a single string. */

/** A template variable may arrive as a list (explode syntax); this server's templates only use single values. */
export function singleVariable(value: string | string[] | undefined): string {
  if (Array.isArray(value)) return value[0] ?? '';
  return value ?? '';
}
