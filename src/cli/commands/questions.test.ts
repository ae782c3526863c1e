/** @module `switchboard questions` against a scripted operator API: what is sent, what is printed, every refusal and its exit code. */

import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';

import { CALL_HELP, MAIN_HELP, QUESTIONS_HELP } from '../help.js';
import type { CliRun } from '../testing/in-process-cli.js';
import { runCliInProcess } from '../testing/in-process-cli.js';
import { RESTART_QUESTION, SAMPLING_QUESTION, settled } from '../testing/question-fixtures.js';
import type { RecordedRequest, ScriptedServer } from '../testing/scripted-http.js';
import { startScriptedServer } from '../testing/scripted-http.js';

const TOKEN = 'op-token-0123456789abcdef';

/** Runs the CLI in process; `stdinLines` are written to stdin (then ended), which `tty` marks as a terminal. */
function run(argv: string[], env: Record<string, string> = {}, options: { stdinLines?: string; tty?: boolean } = {}): Promise<CliRun> {
  return runCliInProcess(argv, env, { stdinText: options.stdinLines, tty: options.tty });
}

const error = (status: number, code: string, message: string, extra: Record<string, unknown> = {}) => ({ status, body: { error: { code, message, ...extra } } });

describe('switchboard questions', () => {
  let api: ScriptedServer;
  let env: Record<string, string>;
  before(async () => {
    api = await startScriptedServer();
  });
  after(() => api.close());
  beforeEach(() => {
    api.requests.length = 0;
    env = { SWITCHBOARD_URL: api.url, SWITCHBOARD_CONSOLE_TOKEN: TOKEN };
  });

  /** Serves GET /api/questions/{id} with `question`, and POST …/answer with `answer(body)`. */
  function serveQuestion(question: typeof RESTART_QUESTION, answer: (body: Record<string, unknown>, request: RecordedRequest) => { status: number; body?: unknown } = (body) => ({ status: 200, body: { question: { ...settled(question, 'answered', { kind: 'operator', name: 'Ada' }), answer: body } } })) {
    api.script((request) => {
      if (request.method === 'GET' && request.path === `/api/questions/${question.id}`) return { status: 200, body: { question, audit: [] } };
      if (request.method === 'POST' && request.path === `/api/questions/${question.id}/answer`) return answer(JSON.parse(request.body) as Record<string, unknown>, request);
      return error(404, 'QUESTION_NOT_FOUND', 'No question has this id');
    });
  }

  describe('list', () => {
    it('asks for the open questions with the bearer token and prints the table', async () => {
      api.script(() => ({ status: 200, body: [RESTART_QUESTION] }));
      const result = await run(['questions', 'list'], env);
      assert.equal(result.code, 0, result.stderr);
      const [request] = api.requests;
      assert.equal(request?.method, 'GET');
      assert.equal(request?.path, '/api/questions');
      assert.equal(request?.query.toString(), 'state=pending%2Cdelivered');
      assert.equal(request?.headers.authorization, `Bearer ${TOKEN}`);
      assert.equal(request?.headers['x-switchboard-operator'], undefined);
      assert.match(result.stdout, /^ID {9}STATE {6}METHOD {7}UPSTREAM {2}TOOL {13}AGE +MESSAGE\nq-restart {2}delivered {2}elicitation {2}desk {6}restart_service {2}\d+d +Restart payments-api\? This drops in-flight requests\.\n$/);
      assert.equal(result.stderr, '');
    });

    it('passes --state (repeatable, comma-separated), --upstream, --tool and --limit; --all drops the state filter', async () => {
      api.script(() => ({ status: 200, body: [] }));
      const filtered = await run(['questions', 'list', '--state', 'answered,expired', '--state', 'declined', '--upstream', 'desk', '--tool', 'restart_service', '--limit', '5'], env);
      assert.equal(filtered.code, 0, filtered.stderr);
      assert.equal(filtered.stdout, 'No questions.\n');
      assert.deepEqual(Object.fromEntries(api.requests[0]?.query ?? []), { state: 'answered,expired,declined', upstream: 'desk', tool: 'restart_service', limit: '5' });
      assert.equal((await run(['questions', 'list', '--all'], env)).code, 0);
      assert.equal(api.requests[1]?.query.toString(), '');
    });

    it('--json prints the API\'s array', async () => {
      api.script(() => ({ status: 200, body: [RESTART_QUESTION, SAMPLING_QUESTION] }));
      const result = await run(['questions', 'list', '--json'], env);
      assert.deepEqual(JSON.parse(result.stdout), [RESTART_QUESTION, SAMPLING_QUESTION]);
    });

    it('takes --url and --token over the environment, and drops a trailing /mcp from the URL', async () => {
      api.script(() => ({ status: 200, body: [] }));
      const result = await run(['questions', 'list', '--url', `${api.url}/mcp`, '--token', 'flag-token-0123456789'], { SWITCHBOARD_URL: 'http://127.0.0.1:1', SWITCHBOARD_CONSOLE_TOKEN: TOKEN });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(api.requests[0]?.path, '/api/questions');
      assert.equal(api.requests[0]?.headers.authorization, 'Bearer flag-token-0123456789');
    });

    it('400 INVALID_QUERY names the parameter, exit 1', async () => {
      api.script(() => error(400, 'INVALID_QUERY', 'unknown parameter', { field: 'tool' }));
      assert.deepEqual(await run(['questions', 'list'], env), { code: 1, stdout: '', stderr: 'switchboard: the request was refused (field tool): unknown parameter\n' });
    });
  });

  describe('show', () => {
    it('prints the record, the fields and the audit trail; --json the API\'s detail', async () => {
      serveQuestion(RESTART_QUESTION);
      const result = await run(['questions', 'show', 'q-restart'], env);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^Question q-restart\n {2}state {5}delivered\n/);
      assert.match(result.stdout, /\nFields\n {2}confirm: yes\/no, required\n/);
      assert.match(result.stdout, /\nAudit trail\n {2}\(empty\)\n$/);
      assert.deepEqual(JSON.parse((await run(['questions', 'show', 'q-restart', '--json'], env)).stdout), { question: RESTART_QUESTION, audit: [] });
    });

    it('404 says no question has the id, exit 1; the id is URL-encoded in the path', async () => {
      serveQuestion(RESTART_QUESTION);
      const result = await run(['questions', 'show', 'q/../x'], env);
      assert.deepEqual(result, { code: 1, stdout: '', stderr: 'switchboard: no question has the id "q/../x"\n' });
      assert.equal(api.requests[0]?.path, '/api/questions/q%2F..%2Fx');
    });
  });

  describe('answer', () => {
    it('--field values are coerced by the schema and sent with the operator name', async () => {
      serveQuestion(RESTART_QUESTION);
      const result = await run(['questions', 'answer', 'q-restart', '--field', 'confirm=yes', '--field', 'ticket=CHG-2291', '--field', 'replicas=2', '--field', 'teams=1,2', '--operator', 'Ada'], env);
      assert.equal(result.code, 0, result.stderr);
      const post = api.requests.find((r) => r.method === 'POST');
      assert.deepEqual(JSON.parse(post?.body ?? ''), { action: 'accept', content: { confirm: true, ticket: 'CHG-2291', replicas: 2, teams: ['db', 'net'] } });
      assert.equal(post?.headers['x-switchboard-operator'], 'Ada');
      assert.equal(post?.headers['content-type'], 'application/json');
      assert.equal(result.stdout, 'Question q-restart answered by operator Ada at 2025-06-01T12:03:00.000Z\n');
    });

    it('--content is sent as given; --json prints the settled question', async () => {
      serveQuestion(RESTART_QUESTION);
      const result = await run(['questions', 'answer', 'q-restart', '--content', '{"confirm":true,"ticket":"CHG-1"}', '--json'], env);
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(JSON.parse(api.requests[1]?.body ?? ''), { action: 'accept', content: { confirm: true, ticket: 'CHG-1' } });
      assert.equal((JSON.parse(result.stdout) as { question: { state: string } }).question.state, 'answered');
    });

    it('--text answers a sampling question as the assistant', async () => {
      serveQuestion(SAMPLING_QUESTION);
      const result = await run(['questions', 'answer', 'q-sampling', '--text', 'All quiet.'], env);
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(JSON.parse(api.requests[1]?.body ?? ''), { action: 'accept', result: { role: 'assistant', content: { type: 'text', text: 'All quiet.' }, model: 'operator', stopReason: 'endTurn' } });
    });

    it('400 INVALID_ANSWER shows the field and says the question stays open, exit 1', async () => {
      serveQuestion(RESTART_QUESTION, () => error(400, 'INVALID_ANSWER', 'field "ticket": expected at least 3 characters', { field: 'ticket' }));
      const result = await run(['questions', 'answer', 'q-restart', '--field', 'confirm=y', '--field', 'ticket=C'], env);
      assert.deepEqual(result, { code: 1, stdout: '', stderr: 'switchboard: the answer was refused (field ticket): field "ticket": expected at least 3 characters; the question stays open\n' });
    });

    it('409 says who settled it first, exit 1', async () => {
      const byBob = settled(RESTART_QUESTION, 'declined', { kind: 'operator', name: 'Bob' });
      serveQuestion(RESTART_QUESTION, () => ({ status: 409, body: { error: { code: 'ALREADY_SETTLED', message: 'already settled' }, question: byBob } }));
      const result = await run(['questions', 'answer', 'q-restart', '--content', '{"confirm":true,"ticket":"CHG-1"}'], env);
      assert.deepEqual(result, { code: 1, stdout: '', stderr: 'switchboard: question q-restart was already settled: declined by operator Bob at 2025-06-01T12:03:00.000Z\n' });
    });

    it('a question already settled when it is read is not answered at all, exit 1', async () => {
      serveQuestion(settled(RESTART_QUESTION, 'expired', { kind: 'gateway', reason: 'deadline passed' }));
      const result = await run(['questions', 'answer', 'q-restart', '--field', 'confirm=y', '--field', 'ticket=CHG-1'], env);
      assert.deepEqual(result, { code: 1, stdout: '', stderr: 'switchboard: question q-restart was already settled: expired by the gateway (deadline passed) at 2025-06-01T12:03:00.000Z\n' });
      assert.deepEqual(api.requests.map((r) => r.method), ['GET']);
    });

    it('a --field the schema refuses is a usage error before anything is posted, exit 2', async () => {
      serveQuestion(RESTART_QUESTION);
      const result = await run(['questions', 'answer', 'q-restart', '--field', 'confirm=perhaps', '--field', 'ticket=CHG-1'], env);
      assert.deepEqual(result, { code: 2, stdout: '', stderr: 'switchboard: questions answer: --field "confirm": answer y or n\n' });
      assert.deepEqual(api.requests.map((r) => r.method), ['GET']);
    });

    it('without content and without a terminal: a usage error naming the flags, exit 2', async () => {
      serveQuestion(RESTART_QUESTION);
      const result = await run(['questions', 'answer', 'q-restart'], env);
      assert.deepEqual(result, { code: 2, stdout: '', stderr: 'switchboard: questions answer: give the answer with --content or --field, or run this in a terminal to be asked\n' });
    });

    it('in a terminal without content, asks each field and posts what was typed', async () => {
      serveQuestion(RESTART_QUESTION);
      const result = await run(['questions', 'answer', 'q-restart'], env, { tty: true, stdinLines: 'y\nCHG-2291\n\n1\na\n' });
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(JSON.parse(api.requests[1]?.body ?? ''), { action: 'accept', content: { confirm: true, ticket: 'CHG-2291', teams: ['db'] } });
      assert.match(result.stderr, /Restart payments-api\? This drops in-flight requests\.\nconfirm \[yes\/no, required\]/);
      assert.match(result.stdout, /^Question q-restart answered by operator Ada/);
    });

    it('in a terminal, a sampling question takes a reply', async () => {
      serveQuestion(SAMPLING_QUESTION);
      const result = await run(['questions', 'answer', 'q-sampling'], env, { tty: true, stdinLines: 'Quiet.\naccept\n' });
      assert.equal(result.code, 0, result.stderr);
      assert.equal((JSON.parse(api.requests[1]?.body ?? '') as { result: { content: { text: string } } }).result.content.text, 'Quiet.');
    });
  });

  describe('decline', () => {
    it('declines, or cancels with --cancel, without reading the question first', async () => {
      serveQuestion(RESTART_QUESTION, (body) => ({ status: 200, body: { question: settled(RESTART_QUESTION, body.action === 'cancel' ? 'cancelled' : 'declined', { kind: 'operator', name: 'operator' }) } }));
      const declined = await run(['questions', 'decline', 'q-restart'], env);
      assert.deepEqual(declined, { code: 0, stdout: 'Question q-restart declined by operator operator at 2025-06-01T12:03:00.000Z\n', stderr: '' });
      const cancelled = await run(['questions', 'decline', 'q-restart', '--cancel'], env);
      assert.equal(cancelled.code, 0);
      assert.deepEqual(
        api.requests.map((r) => [r.method, r.body]),
        [
          ['POST', '{"action":"decline"}'],
          ['POST', '{"action":"cancel"}'],
        ],
      );
    });
  });

  it('401: the token was refused, exit 1, and the token appears nowhere', async () => {
    api.script(() => error(401, 'UNAUTHORIZED', `Send Authorization: Bearer <operator token> (not ${TOKEN})`));
    for (const argv of [['questions', 'list'], ['questions', 'show', 'q-1'], ['questions', 'decline', 'q-1']]) {
      const result = await run(argv, env);
      assert.deepEqual(result, { code: 1, stdout: '', stderr: 'switchboard: the token was refused (give the operator token with --token or SWITCHBOARD_CONSOLE_TOKEN)\n' });
    }
  });

  it('a server that is not the operator API: one line, exit 1', async () => {
    api.script(() => ({ status: 404, body: 'Not Found', headers: { 'content-type': 'text/plain' } }));
    assert.deepEqual(await run(['questions', 'list'], env), { code: 1, stdout: '', stderr: 'switchboard: HTTP 404: is this a Switchboard gateway with the operator API enabled?\n' });
    api.script(() => ({ status: 200, body: { not: 'a list' } }));
    assert.deepEqual(await run(['questions', 'list'], env), { code: 1, stdout: '', stderr: 'switchboard: the gateway answered HTTP 200 with a body that is not what the operator API documents\n' });
  });
});

describe('switchboard questions without a gateway, and usage errors', () => {
  it('cannot connect: one line naming the URL (no token, no query), exit 3', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const result = await run(['questions', 'list', '--url', `http://127.0.0.1:${port}`, '--token', TOKEN]);
    assert.equal(result.code, 3);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, `switchboard: cannot connect to http://127.0.0.1:${port}/api/questions: ECONNREFUSED (is \`switchboard serve\` running there?)\n`);
  });

  const usage: [string[], Record<string, string>, string][] = [
    [['questions'], {}, 'questions: missing the subcommand: list, show, answer or decline (try: switchboard questions --help)'],
    [['questions', 'purge'], {}, 'questions: unknown subcommand "purge": list, show, answer or decline (try: switchboard questions --help)'],
    [['questions', 'list'], {}, 'questions list: no operator token: give --token or set SWITCHBOARD_CONSOLE_TOKEN'],
    [['questions', 'list', '--token', 'a\nb'], {}, 'questions list: the operator token contains a control character (a line break?)'],
    [['questions', 'list', '--operator', 'Ада\u0000'], { SWITCHBOARD_CONSOLE_TOKEN: TOKEN }, 'questions list: --operator contains a control character (a line break?)'],
    [['questions', 'list', '--url', 'ftp://x'], { SWITCHBOARD_CONSOLE_TOKEN: TOKEN }, 'questions list: --url must be an http:// or https:// URL'],
    [['questions', 'list'], { SWITCHBOARD_CONSOLE_TOKEN: TOKEN, SWITCHBOARD_URL: 'nope' }, 'questions list: SWITCHBOARD_URL "nope" is not a URL (e.g. http://127.0.0.1:3939)'],
    [['questions', 'list', '--state', 'open'], { SWITCHBOARD_CONSOLE_TOKEN: TOKEN }, 'questions list: --state "open" is not a state (pending, delivered, answered, declined, cancelled, expired, abandoned)'],
    [['questions', 'list', '--all', '--state', 'pending'], { SWITCHBOARD_CONSOLE_TOKEN: TOKEN }, 'questions list: give --all or --state, not both'],
    [['questions', 'list', '--limit', '0'], { SWITCHBOARD_CONSOLE_TOKEN: TOKEN }, 'questions list: --limit must be a whole number from 1 to 1000'],
    [['questions', 'list', 'extra'], { SWITCHBOARD_CONSOLE_TOKEN: TOKEN }, 'questions list: unexpected argument extra (try: switchboard questions --help)'],
    [['questions', 'show'], { SWITCHBOARD_CONSOLE_TOKEN: TOKEN }, 'questions show: missing the question id (try: switchboard questions --help)'],
    [['questions', 'show', 'a', 'b'], { SWITCHBOARD_CONSOLE_TOKEN: TOKEN }, 'questions show: unexpected argument b (try: switchboard questions --help)'],
    [['questions', 'show', 'a', '--cancel'], { SWITCHBOARD_CONSOLE_TOKEN: TOKEN }, 'questions show: unknown option --cancel (try: switchboard questions --help)'],
    [['questions', 'answer', 'a', '--field'], { SWITCHBOARD_CONSOLE_TOKEN: TOKEN }, 'questions answer: option --field needs a value (try: switchboard questions --help)'],
  ];
  for (const [argv, env, line] of usage) {
    it(`"${argv.join(' ')}" → exit 2: ${line}`, async () => {
      assert.deepEqual(await run(argv, env), { code: 2, stdout: '', stderr: `switchboard: ${line}\n` });
    });
  }

  it('prints its help (and call\'s) on stdout, and the main help lists both commands', async () => {
    for (const argv of [['questions', '--help'], ['questions', 'list', '--help'], ['help', 'questions']]) assert.deepEqual(await run(argv), { code: 0, stdout: QUESTIONS_HELP, stderr: '' });
    for (const argv of [['call', '--help'], ['help', 'call']]) assert.deepEqual(await run(argv), { code: 0, stdout: CALL_HELP, stderr: '' });
    assert.match(MAIN_HELP, /\n {2}questions {3}List, show and answer/);
    assert.match(MAIN_HELP, /\n {2}call {8}Call one tool through a running gateway/);
  });
});
