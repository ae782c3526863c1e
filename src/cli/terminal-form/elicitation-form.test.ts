/** @module The terminal form driven by piped lines: the restart approval, re-asked fields, decline, cancel at end of input, URL mode, sampling. */

import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';

import { VECTOR_ELICIT_PARAMS as RESTART } from '../../../examples/incident-desk/testing/restart-vector.js';
import { askElicitation } from './elicitation-form.js';
import { createPrompter } from './line-prompter.js';
import { askSamplingReply } from './sampling-reply.js';

/** A prompter over `input` (all of it written at once, then ended), echoing as for a pipe, and what it printed. */
function scripted(input: string) {
  const stdin = new PassThrough();
  const out = new PassThrough();
  let printed = '';
  out.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  stdin.end(input);
  return { prompter: createPrompter(stdin, out, { echo: true }), printed: () => printed };
}

describe('askElicitation', () => {
  it('answers the restart approval from piped lines, and the transcript shows message, fields and echoed answers', async () => {
    const { prompter, printed } = scripted('y\nCHG-2291\naccept\n');
    assert.deepEqual(await askElicitation(RESTART, prompter), { action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } });
    assert.equal(
      printed(),
      [
        '',
        'Restart payments-api? This drops in-flight requests.',
        'confirm [yes/no, required]',
        '  Tick to approve the restart',
        '[y/n] > y',
        'ticket [text, required]',
        '  Change ticket number, e.g. CHG-2291',
        '> CHG-2291',
        'Accept, decline or cancel? [a/d/c] > accept',
        '',
      ].join('\n'),
    );
  });

  it('re-asks a field until it is valid, and the action until it is one', async () => {
    const { prompter, printed } = scripted('perhaps\n\nn\n\nCHG-1\nsure\na\n');
    assert.deepEqual(await askElicitation(RESTART, prompter), { action: 'accept', content: { confirm: false, ticket: 'CHG-1' } });
    assert.match(printed(), /> perhaps\n {2}! answer y or n\n\[y\/n\] > \n {2}! required: answer y or n\n\[y\/n\] > n\n/);
    assert.match(printed(), /> \n {2}! required: type a value\n> CHG-1\n/);
    assert.match(printed(), /> sure\n {2}! type a \(accept\), d \(decline\) or c \(cancel\)\n/);
  });

  it('declines without content, and cancels at the end of input', async () => {
    assert.deepEqual(await askElicitation(RESTART, scripted('y\nCHG-1\nd\n').prompter), { action: 'decline' });
    assert.deepEqual(await askElicitation(RESTART, scripted('y\n').prompter), { action: 'cancel' });
    assert.deepEqual(await askElicitation(RESTART, scripted('y\nCHG-1\n').prompter), { action: 'cancel' });
  });

  it('leaves out an optional field answered with Enter', async () => {
    const params = { message: 'Notes?', requestedSchema: { type: 'object', properties: { note: { type: 'string' }, level: { type: 'integer', default: 3 } } } };
    assert.deepEqual(await askElicitation(params, scripted('\n\nc\n').prompter), { action: 'cancel' });
    assert.deepEqual(await askElicitation(params, scripted('\n\na\n').prompter), { action: 'accept', content: { level: 3 } });
  });

  it('refuses to render a schema that is not a flat form, answering cancel', async () => {
    const { prompter, printed } = scripted('');
    const params = { message: 'Nested', requestedSchema: { type: 'object', properties: { address: { type: 'object', properties: {} } } } };
    assert.deepEqual(await askElicitation(params, prompter), { action: 'cancel' });
    assert.match(printed(), /This form cannot be shown \(requestedSchema\.properties\.address is a nested object/);
  });

  it('shows a URL-mode elicitation\'s URL and takes accept as done', async () => {
    const { prompter, printed } = scripted('a\n');
    assert.deepEqual(await askElicitation({ mode: 'url', message: 'Sign in', url: 'https://auth.example/x', elicitationId: 'e1' }, prompter), { action: 'accept' });
    assert.match(printed(), /Open this URL and finish there: https:\/\/auth\.example\/x\n/);
  });

  it('shows escape sequences from the upstream as text, never sends them to the terminal', async () => {
    const { prompter, printed } = scripted('c\n');
    await askElicitation({ message: 'Hi \u001b[2J\u001b]0;owned\u0007', requestedSchema: { type: 'object', properties: {} } }, prompter);
    assert.doesNotMatch(printed(), /\u001b/);
    assert.match(printed(), /Hi \\u001b\[2J\\u001b\]0;owned\\u0007/);
  });
});

describe('askSamplingReply', () => {
  const params = { messages: [{ role: 'user', content: { type: 'text', text: 'Summarise INC-1042' } }], systemPrompt: 'Be brief', maxTokens: 200 };

  it('shows the messages and takes a reply, then accept', async () => {
    const { prompter, printed } = scripted('All good.\na\n');
    assert.deepEqual(await askSamplingReply(params, prompter), { action: 'accept', text: 'All good.' });
    assert.match(printed(), /system: Be brief\n {2}user: Summarise INC-1042\n {2}\(at most 200 tokens\)\n/);
  });

  it('an empty reply leads to decline or cancel; accept then needs a reply', async () => {
    assert.deepEqual(await askSamplingReply(params, scripted('\nd\n').prompter), { action: 'decline' });
    assert.deepEqual(await askSamplingReply(params, scripted('\na\nFine\na\n').prompter), { action: 'accept', text: 'Fine' });
    assert.deepEqual(await askSamplingReply(params, scripted('').prompter), { action: 'cancel' });
  });
});

describe('createPrompter', () => {
  it('waits for lines that arrive later, splits chunks across lines and takes a last line without a line break', async () => {
    const stdin = new PassThrough();
    const out = new PassThrough();
    out.resume();
    const prompter = createPrompter(stdin, out, { echo: false });
    const first = prompter.ask('? ');
    stdin.write('one\r\ntw');
    assert.equal(await first, 'one');
    const second = prompter.ask('? ');
    stdin.write('o\nthree');
    assert.equal(await second, 'two');
    const third = prompter.ask('? ');
    stdin.end();
    assert.equal(await third, 'three');
    assert.equal(await prompter.ask('? '), undefined);
  });

  it('does not read the input before the first question, and stops at close()', async () => {
    const stdin = new PassThrough();
    const out = new PassThrough();
    out.resume();
    const prompter = createPrompter(stdin, out, { echo: false });
    assert.equal(stdin.listenerCount('data'), 0);
    stdin.write('a\n');
    assert.equal(await prompter.ask(''), 'a');
    prompter.close();
    assert.equal(stdin.listenerCount('data'), 0);
    assert.equal(await prompter.ask(''), undefined);
  });
});
