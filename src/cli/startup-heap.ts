/**
 * @module The young generation held small while the gateway starts: loading its modules allocates in one burst, which
 * V8 takes for steady throughput and answers by growing the young generation to its largest (about 27 MB the idle
 * gateway then keeps, unused). Held at its initial size until the gateway serves, then left to grow under load again.
 */

import { setFlagsFromString } from 'node:v8';

const FLAG = '--semi-space-growth-factor';
/** V8's own default for the flag (what the gateway's load finds once it serves). */
const V8_DEFAULT_GROWTH_FACTOR = 2;

let held = false;

/** Whether whoever started node set the flag (then it is theirs, and left alone). */
function setByUser(argv: readonly string[], nodeOptions: string | undefined): boolean {
  const given = [...argv, ...(nodeOptions ?? '').split(/\s+/)];
  return given.some((arg) => arg.startsWith(FLAG) || arg.startsWith('--semi_space_growth_factor'));
}

/** Keeps the young generation at its initial size from now on (call before the modules load). */
export function holdYoungGenerationSmall(argv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS): void {
  if (held || setByUser(argv, nodeOptions)) return;
  setFlagsFromString(`${FLAG}=1`);
  held = true;
}

/** The gateway serves: its young generation may grow with the load again (what V8 does by default). */
export function releaseYoungGeneration(): void {
  if (!held) return;
  setFlagsFromString(`${FLAG}=${V8_DEFAULT_GROWTH_FACTOR}`);
  held = false;
}
