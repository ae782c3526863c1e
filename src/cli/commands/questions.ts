/** @module `switchboard questions list|show|answer|decline`: the question desk's operator API from the terminal. */

import { systemClock } from '../../core/clock.js';
import { OPEN_STATES } from '../../questions/question.js';
import type { AnswerRequest, QuestionView } from '../../edges/operator/api-schemas.js';
import { parseCommandLine } from '../args.js';
import type { CliIo } from '../cli-io.js';
import { CliError, UsageError } from '../cli-io.js';
import { ConnectError, EXIT_CANNOT_CONNECT } from '../connect-error.js';
import { QUESTIONS_HELP } from '../help.js';
import { OperatorApiError, OperatorClient } from '../operator-client.js';
import type { AnswerFlags } from '../questions/answer-body.js';
import { planAnswer, samplingResult } from '../questions/answer-body.js';
import { apiErrorText, describeSettlement } from '../questions/api-error-text.js';
import { CONNECTION_OPTIONS, operatorClientOptions, parseLimit, parseStates } from '../questions/operator-options.js';
import { formatQuestionDetail } from '../questions/question-detail.js';
import { formatQuestionTable } from '../questions/question-table.js';
import { askElicitation } from '../terminal-form/elicitation-form.js';
import { createPrompter } from '../terminal-form/line-prompter.js';
import { askSamplingReply } from '../terminal-form/sampling-reply.js';
import { safeText } from '../terminal-text.js';

/** Exit code when the API refused the request (401, 400, 404, 409…). */
const EXIT_REFUSED = 1;

const LIST_OPTIONS = { ...CONNECTION_OPTIONS, state: { type: 'string', multiple: true }, upstream: { type: 'string' }, tool: { type: 'string' }, all: { type: 'boolean' }, limit: { type: 'string' } } as const;
const ANSWER_OPTIONS = { ...CONNECTION_OPTIONS, content: { type: 'string' }, field: { type: 'string', multiple: true }, text: { type: 'string' }, result: { type: 'string' } } as const;
const DECLINE_OPTIONS = { ...CONNECTION_OPTIONS, cancel: { type: 'boolean' } } as const;

/** A subcommand with its flags read: the connection flags, the question it is about (for messages), and what it does. */
interface Prepared {
  connection: { url?: string | undefined; token?: string | undefined; operator?: string | undefined; help?: boolean | undefined };
  id?: string;
  run(client: OperatorClient): Promise<void>;
}

function json(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** The one positional a subcommand takes (the question id), or a UsageError. */
function questionId(prefix: string, positionals: string[]): string {
  const [id, extra] = positionals;
  if (id === undefined || id === '') throw new UsageError(`${prefix}: missing the question id (try: switchboard questions --help)`);
  if (extra !== undefined) throw new UsageError(`${prefix}: unexpected argument ${extra} (try: switchboard questions --help)`);
  return id;
}

function isTerminal(stream: unknown): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}

/** Asks the operator in the terminal for the answer to `question` (a form or a sampling reply). */
async function askInTerminal(question: QuestionView, io: CliIo): Promise<AnswerRequest> {
  const prompter = createPrompter(io.stdin, io.stderr, { echo: false });
  try {
    if (question.method === 'sampling/createMessage') {
      const reply = await askSamplingReply(question.params, prompter);
      return reply.action === 'accept' ? { action: 'accept', result: samplingResult(reply.text) } : { action: reply.action };
    }
    return await askElicitation(question.params, prompter);
  } finally {
    prompter.close();
  }
}

function printSettled(io: CliIo, asJson: boolean | undefined, question: QuestionView): void {
  if (asJson) json(io, { question });
  else if (question.state === 'pending' || question.state === 'delivered') {
    // Four-eyes: the accept was recorded as an approval and the question waits for another operator.
    const approvals = question.approvals;
    const count = approvals === undefined ? '' : `: ${approvals.approvers.length} of ${approvals.needed} approvals`;
    io.stdout.write(`Question ${safeText(question.id)} awaits more approvals${safeText(count)}\n`);
  } else io.stdout.write(`Question ${safeText(question.id)} ${safeText(describeSettlement(question))}\n`);
}

/** What a subcommand does when it is only asked for its help: nothing (the caller prints the help). */
function helpOnly(connection: Prepared['connection']): Prepared {
  return { connection, run: async () => undefined };
}

/** A subcommand about one question: `--help` asks for nothing else; otherwise the question id (or a UsageError) and what to do with it. */
function aboutQuestion(prefix: string, values: Prepared['connection'], positionals: string[], run: (id: string) => Prepared['run']): Prepared {
  if (values.help) return helpOnly(values);
  const id = questionId(prefix, positionals);
  return { connection: values, id, run: run(id) };
}

function list(prefix: string, argv: string[], io: CliIo): Prepared {
  const { values, positionals } = parseCommandLine(prefix, argv, LIST_OPTIONS, 'questions');
  if (values.help) return helpOnly(values);
  if (positionals.length > 0) throw new UsageError(`${prefix}: unexpected argument ${positionals[0]} (try: switchboard questions --help)`);
  if (values.all && values.state !== undefined) throw new UsageError(`${prefix}: give --all or --state, not both`);
  const filter = {
    ...(!values.all && { states: values.state === undefined ? OPEN_STATES : parseStates(prefix, values.state) }),
    ...(values.upstream !== undefined && { upstream: values.upstream }),
    ...(values.tool !== undefined && { tool: values.tool }),
    ...(values.limit !== undefined && { limit: parseLimit(prefix, values.limit) }),
  };
  return {
    connection: values,
    async run(client) {
      const questions = await client.list(filter);
      if (values.json) json(io, questions);
      else io.stdout.write(formatQuestionTable(questions, systemClock.date()));
    },
  };
}

function show(prefix: string, argv: string[], io: CliIo): Prepared {
  const { values, positionals } = parseCommandLine(prefix, argv, CONNECTION_OPTIONS, 'questions');
  return aboutQuestion(prefix, values, positionals, (id) => async (client) => {
    const detail = await client.get(id);
    if (values.json) json(io, detail);
    else io.stdout.write(formatQuestionDetail(detail, systemClock.date()));
  });
}

function answer(prefix: string, argv: string[], io: CliIo): Prepared {
  const { values, positionals } = parseCommandLine(prefix, argv, ANSWER_OPTIONS, 'questions');
  const flags: AnswerFlags = {
    ...(values.content !== undefined && { content: values.content }),
    ...(values.field !== undefined && { fields: values.field }),
    ...(values.text !== undefined && { text: values.text }),
    ...(values.result !== undefined && { result: values.result }),
  };
  return aboutQuestion(prefix, values, positionals, (id) => async (client) => {
    // Read first: the schema builds the answer, and a settled question is reported without posting.
    const { question } = await client.get(id);
    if (!OPEN_STATES.includes(question.state)) throw new CliError(`question ${safeText(id)} was already settled: ${safeText(describeSettlement(question))}`);
    const plan = planAnswer(question, flags);
    if (plan.kind === 'ask' && !isTerminal(io.stdin)) {
      throw new UsageError(`${prefix}: give the answer with ${question.method === 'sampling/createMessage' ? '--text' : '--content or --field'}, or run this in a terminal to be asked`);
    }
    const body = plan.kind === 'send' ? plan.body : await askInTerminal(question, io);
    printSettled(io, values.json, await client.answer(id, body));
  });
}

function decline(prefix: string, argv: string[], io: CliIo): Prepared {
  const { values, positionals } = parseCommandLine(prefix, argv, DECLINE_OPTIONS, 'questions');
  return aboutQuestion(prefix, values, positionals, (id) => async (client) => {
    printSettled(io, values.json, await client.answer(id, { action: values.cancel ? 'cancel' : 'decline' }));
  });
}

const SUBCOMMANDS: Record<string, (prefix: string, argv: string[], io: CliIo) => Prepared> = { list, show, answer, decline };

export async function questionsCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined) throw new UsageError('questions: missing the subcommand: list, show, answer or decline (try: switchboard questions --help)');
  if (sub === '--help' || sub === '-h' || sub === 'help') {
    io.stdout.write(QUESTIONS_HELP);
    return 0;
  }
  const subcommand = Object.hasOwn(SUBCOMMANDS, sub) ? SUBCOMMANDS[sub] : undefined;
  if (subcommand === undefined) throw new UsageError(`questions: unknown subcommand ${JSON.stringify(sub)}: list, show, answer or decline (try: switchboard questions --help)`);
  const prefix = `questions ${sub}`;
  const prepared = subcommand(prefix, rest, io);
  if (prepared.connection.help) {
    io.stdout.write(QUESTIONS_HELP);
    return 0;
  }
  const options = operatorClientOptions(prefix, prepared.connection, io.env);
  try {
    await prepared.run(new OperatorClient(options));
    return 0;
  } catch (error) {
    if (error instanceof OperatorApiError) {
      io.stderr.write(`switchboard: ${apiErrorText(error, prepared.id, options.token)}\n`);
      return EXIT_REFUSED;
    }
    if (error instanceof ConnectError) {
      io.stderr.write(`switchboard: ${error.message}\n`);
      return EXIT_CANNOT_CONNECT;
    }
    throw error;
  }
}
