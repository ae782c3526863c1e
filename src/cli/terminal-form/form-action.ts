/** @module The last question of every terminal form: accept, decline or cancel, from what was typed. */

export type FormAction = 'accept' | 'decline' | 'cancel';

export const ACTION_PROMPT = 'Accept, decline or cancel? [a/d/c] > ';

const WORDS: Record<string, FormAction> = {
  a: 'accept',
  accept: 'accept',
  y: 'accept',
  yes: 'accept',
  d: 'decline',
  decline: 'decline',
  n: 'decline',
  no: 'decline',
  c: 'cancel',
  cancel: 'cancel',
};

/** The action a line names (case and surrounding spaces ignored), or undefined: there is no default, a person must choose. */
export function parseAction(line: string): FormAction | undefined {
  return WORDS[line.trim().toLowerCase()];
}
