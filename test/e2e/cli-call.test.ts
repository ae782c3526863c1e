/**
 * @module e2e/cli-call.test: the terminal surfaces in front of the real `switchboard serve` and the incident desk.
 *
 * `switchboard call` (a child process, answers piped on stdin) approves restart_service through the form it renders;
 * `switchboard questions` answers, as an operator, the approval of a host that cannot elicit, over the real
 * operator REST API: list, show, answer with --field, then 409 and 401 and 404 as the API gives them.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';

import { type RunningGateway, startGateway } from './harness/gateway.js';
import { REPO_ROOT, SWITCHBOARD_BIN } from './harness/paths.js';
import { RawHost } from './harness/raw-host.js';
import { answers, isRequest, toolText } from './harness/tool-results.js';
import { incidentDeskStdio } from './harness/upstreams.js';

const TOKEN = 'e2e-cli-operator-token-7c1f';
/** Bound on one CLI child: it talks to a local gateway, so anything slower is a hang. */
const CHILD_TIMEOUT_MS = 15_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `switchboard …` as a child process with `stdin` piped in (then closed); killed after CHILD_TIMEOUT_MS. */
function switchboard(args: string[], stdin = '', env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SWITCHBOARD_BIN, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, SWITCHBOARD_URL: '', SWITCHBOARD_CONSOLE_TOKEN: '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(stdin);
  });
}

interface ListedQuestion {
  id: string;
  state: string;
  tool?: string;
  answeredBy?: { kind: string; name?: string };
  answer?: { action: string; content?: Record<string, unknown> };
}

describe('the CLI in front of switchboard serve and the incident desk', { timeout: 90_000 }, () => {
  let gateway: RunningGateway;
  let base: string;
  const operatorEnv = () => ({ SWITCHBOARD_URL: base, SWITCHBOARD_CONSOLE_TOKEN: TOKEN });

  before(async () => {
    gateway = await startGateway({
      upstreams: { desk: incidentDeskStdio() },
      questions: { route: 'host-then-operator' },
      console: { token: TOKEN },
      store: { type: 'memory' },
    });
    base = new URL(gateway.url).origin;
  });
  after(() => gateway?.stop());

  describe('switchboard call', () => {
    it('renders the approval form, takes y / CHG-2291 / accept from stdin, and prints the tool result', async () => {
      const run = await switchboard(['call', 'restart_service', '{"service":"payments-api"}', '--url', gateway.url], 'y\nCHG-2291\naccept\n');
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, 'RESTARTED payments-api under CHG-2291\n');
      assert.match(run.stderr, /Restart payments-api\? This drops in-flight requests\.\n/);
      assert.match(run.stderr, /confirm \[yes\/no, required\]\n {2}Tick to approve the restart\n\[y\/n\] > y\n/);
      assert.match(run.stderr, /ticket \[text, required\]\n {2}Change ticket number, e\.g\. CHG-2291\n> CHG-2291\n/);
      assert.match(run.stderr, /Accept, decline or cancel\? \[a\/d\/c\] > accept\n/);
    });

    it('a declined form gives the desk\'s "NOT RESTARTED" result; --no-input cancels', async () => {
      const declined = await switchboard(['call', 'restart_service', '{"service":"payments-api"}', '--url', gateway.url], 'n\nCHG-1\ndecline\n');
      assert.equal(declined.code, 0, declined.stderr);
      assert.equal(declined.stdout, 'NOT RESTARTED payments-api: approval declined\n');
      const cancelled = await switchboard(['call', 'restart_service', '{"service":"payments-api"}', '--url', gateway.url, '--no-input']);
      assert.equal(cancelled.stdout, 'NOT RESTARTED payments-api: approval cancelled\n');
    });

    it('re-asks a required field left empty, and a bad boolean, before sending', async () => {
      const run = await switchboard(['call', 'restart_service', '{"service":"payments-api"}', '--url', gateway.url], 'perhaps\ny\n\nCHG-3\na\n');
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, 'RESTARTED payments-api under CHG-3\n');
      assert.match(run.stderr, /\[y\/n\] > perhaps\n {2}! answer y or n\n/);
      assert.match(run.stderr, /> \n {2}! required: type a value\n/);
    });

    it('an unknown tool is the gateway\'s JSON-RPC error, exit 1; a gateway that is not there, exit 3', async () => {
      const unknown = await switchboard(['call', 'no_such_tool', '--url', gateway.url]);
      assert.equal(unknown.code, 1);
      assert.equal(unknown.stdout, '');
      assert.match(unknown.stderr, /^switchboard: no_such_tool failed: GW_ERR_UNKNOWN_TOOL \(-32602\): /);
      const absent = await switchboard(['call', 'restart_service', '--url', 'http://127.0.0.1:9/mcp']);
      assert.equal(absent.code, 3);
      assert.match(absent.stderr, /^switchboard: cannot connect to http:\/\/127\.0\.0\.1:9\/mcp: /);
    });

    it('the answers given through `call` are in the desk\'s record, answered by the host', async () => {
      const run = await switchboard(['questions', 'list', '--all', '--json'], '', operatorEnv());
      assert.equal(run.code, 0, run.stderr);
      const answered = (JSON.parse(run.stdout) as ListedQuestion[]).filter((q) => q.state === 'answered' && q.answer?.content?.ticket === 'CHG-2291');
      assert.equal(answered.length, 1, run.stdout);
      assert.equal(answered[0]?.answeredBy?.kind, 'host');
    });
  });

  describe('switchboard questions, answering for a host that cannot elicit', () => {
    let host: RawHost;
    after(() => host?.close());

    it('lists, shows and answers the approval with --field; the host\'s call then ends with the result', async () => {
      host = await RawHost.connect(gateway.url, { protocolVersion: '2025-06-18', capabilities: {} });
      const call = await host.callTool(41, 'restart_service', { service: 'payments-api' });

      // The question reaches the desk; wait (bounded) until the API lists it.
      let open: ListedQuestion | undefined;
      for (let attempt = 0; attempt < 50 && open === undefined; attempt++) {
        const listed = await switchboard(['questions', 'list', '--json', '--tool', 'restart_service'], '', operatorEnv());
        assert.equal(listed.code, 0, listed.stderr);
        open = (JSON.parse(listed.stdout) as ListedQuestion[])[0];
        if (open === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.ok(open, 'the approval is listed as open');
      assert.match(open.state, /^(pending|delivered)$/);

      const table = await switchboard(['questions', 'list'], '', operatorEnv());
      assert.match(table.stdout, new RegExp(`^ID +STATE +METHOD +UPSTREAM +TOOL +AGE +MESSAGE\\n${open.id} +(pending|delivered) +elicitation +desk +restart_service +\\d+s +Restart payments-api\\? This drops in-flight requests\\.\\n$`));

      const show = await switchboard(['questions', 'show', open.id], '', operatorEnv());
      assert.equal(show.code, 0, show.stderr);
      assert.match(show.stdout, /\nFields\n {2}confirm: yes\/no, required\n {6}Tick to approve the restart\n {2}ticket: text, required\n/);
      assert.match(show.stdout, /\nAudit trail\n {2}\S+ +gateway +created/);

      const answer = await switchboard(['questions', 'answer', open.id, '--field', 'confirm=y', '--field', 'ticket=CHG-2291', '--operator', 'Ada'], '', operatorEnv());
      assert.equal(answer.code, 0, answer.stderr);
      assert.match(answer.stdout, new RegExp(`^Question ${open.id} answered by operator Ada at \\S+\\n$`));

      const result = await call.until(answers(41));
      assert.equal(toolText(result), 'RESTARTED payments-api under CHG-2291');
      assert.deepEqual(call.seen.filter(isRequest), [], 'the host never saw the question');

      const again = await switchboard(['questions', 'decline', open.id], '', operatorEnv());
      assert.equal(again.code, 1);
      assert.match(again.stderr, new RegExp(`^switchboard: question ${open.id} was already settled: answered by operator Ada at \\S+\\n$`));
    });

    it('a wrong token: "the token was refused", exit 1, the token shown nowhere; an unknown id: 404, exit 1', async () => {
      const refused = await switchboard(['questions', 'list', '--token', 'wrong-token-wrong-token'], '', { SWITCHBOARD_URL: base });
      assert.deepEqual(refused, { code: 1, stdout: '', stderr: 'switchboard: the token was refused (give the operator token with --token or SWITCHBOARD_CONSOLE_TOKEN)\n' });
      const missing = await switchboard(['questions', 'show', 'no-such-id'], '', operatorEnv());
      assert.deepEqual(missing, { code: 1, stdout: '', stderr: 'switchboard: no question has the id "no-such-id"\n' });
    });
  });
});
