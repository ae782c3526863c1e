/**
 * @module Asks one line at a time: writes a prompt, reads the next line of input (a terminal in line mode, or a pipe),
 * and gives undefined at the end of input. When the input is not a terminal, each answer is echoed after its
 * prompt, so a transcript reads like the session it replaces.
 */

import type { Readable, Writable } from 'node:stream';

export interface Prompter {
  /** Writes `prompt`, then resolves with the next line (without its line break), or undefined once input has ended. */
  ask(prompt: string): Promise<string | undefined>;
  /** Writes `text` as is. */
  say(text: string): void;
  /** Stops reading the input (lines not asked for yet are dropped). */
  close(): void;
}

export interface PrompterOptions {
  /** Write each answer after its prompt (for input that is not a terminal, which echoes by itself). */
  echo: boolean;
}

export function createPrompter(input: Readable, output: Writable, options: PrompterOptions): Prompter {
  const lines: string[] = [];
  const waiters: ((line: string | undefined) => void)[] = [];
  let partial = '';
  let ended = false;
  let listening = false;

  const deliver = () => {
    while (waiters.length > 0 && (lines.length > 0 || ended)) waiters.shift()?.(lines.shift());
  };
  const onData = (chunk: string | Buffer) => {
    partial += chunk.toString();
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    for (const part of parts) lines.push(part.replace(/\r$/, ''));
    deliver();
  };
  const onEnd = () => {
    if (partial !== '') lines.push(partial.replace(/\r$/, ''));
    partial = '';
    ended = true;
    deliver();
  };
  const listen = () => {
    if (listening) return;
    listening = true;
    if (typeof input.setEncoding === 'function') input.setEncoding('utf8');
    input.on('data', onData);
    input.once('end', onEnd);
    input.once('close', onEnd);
    input.once('error', onEnd);
  };

  return {
    async ask(prompt) {
      output.write(prompt);
      listen();
      const line = await new Promise<string | undefined>((resolve) => {
        waiters.push(resolve);
        deliver();
      });
      if (options.echo || line === undefined) output.write(line === undefined ? '\n' : `${line}\n`);
      return line;
    },
    say(text) {
      output.write(text);
    },
    close() {
      if (!listening) return;
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('close', onEnd);
      input.off('error', onEnd);
      input.pause();
      ended = true;
      deliver();
    },
  };
}
