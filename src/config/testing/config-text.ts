/** @module Config text for tests: YAML written one line per argument, and the `composites:` section built around its steps. */

/** Lines joined with "\n", so each case shows plainly which line is which. */
export const yaml = (...lines: string[]): string => `${lines.join('\n')}\n`;

/** A config whose composites start on line 4 (line 3 is `composites:`). */
export const withComposites = (...lines: string[]): string => yaml('upstreams:', '  desk: { command: node }', 'composites:', ...lines);

/** `safe_restart` with one step per line from line 7 on. */
export const steps = (...lines: string[]): string => withComposites('  safe_restart:', '    description: Restart a service safely', '    steps:', ...lines);

/** An elicit step's one-line question, to follow its `- id:` line. */
export const ELICIT = '        elicit: { message: "Go?", requestedSchema: { type: object } }';
