/** @module A sampling request answered in the terminal: its messages, a one-line reply, then accept, decline or cancel. */

import type { JsonObject } from '../../protocol/jsonrpc.js';
import { samplingLines } from '../questions/sampling-lines.js';
import { askAction } from './elicitation-form.js';
import type { FormAction } from './form-action.js';
import type { Prompter } from './line-prompter.js';

export type SamplingReply = { action: 'accept'; text: string } | { action: Exclude<FormAction, 'accept'> };

/** Shows the request and asks for the reply (an empty one leads to decline or cancel); the end of input answers cancel. */
export async function askSamplingReply(params: JsonObject, prompter: Prompter): Promise<SamplingReply> {
  prompter.say(`\nThe upstream asks for a model reply to:\n${samplingLines(params).join('\n')}\n`);
  for (;;) {
    const text = await prompter.ask('Reply (Enter alone to decline or cancel) > ');
    if (text === undefined) return { action: 'cancel' };
    if (text.trim() === '') {
      const action = await askAction(prompter, 'Decline or cancel? [d/c] > ');
      if (action === undefined) return { action: 'cancel' };
      if (action !== 'accept') return { action };
      prompter.say('  ! accepting needs a reply\n');
      continue;
    }
    const action = await askAction(prompter);
    if (action === undefined) return { action: 'cancel' };
    return action === 'accept' ? { action, text } : { action };
  }
}
