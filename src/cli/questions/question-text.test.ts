/** @module How questions read in the terminal: the list table, the detail of one, and each API refusal as one line. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { OperatorApiError } from '../operator-client.js';
import { RESTART_QUESTION, ROOTS_QUESTION, SAMPLING_QUESTION, settled, URL_QUESTION } from '../testing/question-fixtures.js';
import { apiErrorText, redact } from './api-error-text.js';
import { formatQuestionDetail } from './question-detail.js';
import { age, formatQuestionTable } from './question-table.js';

const NOW = new Date('2025-06-01T12:05:30.000Z');

describe('formatQuestionTable', () => {
  it('aligns id, state, method, upstream, tool, age and a one-line message excerpt', () => {
    const table = formatQuestionTable([RESTART_QUESTION, SAMPLING_QUESTION, { ...ROOTS_QUESTION, tool: undefined } as typeof ROOTS_QUESTION, URL_QUESTION], NOW);
    assert.equal(
      table,
      [
        'ID          STATE      METHOD             UPSTREAM  TOOL                AGE  MESSAGE',
        'q-restart   delivered  elicitation        desk      restart_service     5m   Restart payments-api? This drops in-flight requests.',
        'q-sampling  pending    sampling           desk      summarize_incident  5m   Summarise INC-1042 in one line',
        'q-roots     pending    roots              desk      -                   5m   asks for the host\'s roots',
        'q-url       delivered  elicitation (url)  desk      restart_service     5m   Sign in to the CRM',
        '',
      ].join('\n'),
    );
  });

  it('cuts a long message and shows escape sequences as text', () => {
    const long = { ...RESTART_QUESTION, params: { ...RESTART_QUESTION.params, message: `\u001b[2J${'x'.repeat(100)}` } };
    const row = formatQuestionTable([long], NOW).split('\n')[1] ?? '';
    assert.doesNotMatch(row, /\u001b/);
    assert.match(row, /\\u001b\[2Jx+…$/);
    assert.equal([...row.slice(row.indexOf('\\u001b'))].length, 60, 'the excerpt is 60 characters, ellipsis included');
  });

  it('says so when there is nothing', () => {
    assert.equal(formatQuestionTable([], NOW), 'No questions.\n');
  });

  const ages: [string, string][] = [
    ['2025-06-01T12:05:29.500Z', '0s'],
    ['2025-06-01T12:05:00.000Z', '30s'],
    ['2025-06-01T12:04:30.000Z', '1m'],
    ['2025-06-01T10:05:30.000Z', '2h'],
    ['2025-05-29T12:05:30.000Z', '3d'],
    ['2025-06-01T12:06:00.000Z', '0s'],
  ];
  for (const [iso, text] of ages) {
    it(`age of ${iso} is ${text}`, () => assert.equal(age(iso, NOW), text));
  }
});

describe('formatQuestionDetail', () => {
  it('shows who asked (host principal, client name, the call\'s arguments), a four-eyes question\'s approvals, and a verified answerer', () => {
    const question = {
      ...settled(RESTART_QUESTION, 'answered', { kind: 'operator', name: 'Ben', subject: 'ben-sub', issuer: 'https://id.example' }),
      principal: 'host-1 (https://id.example)',
      clientName: 'claude-code',
      arguments: { service: 'payments-api', apiKey: '[redacted]' },
      approvals: { needed: 2, approvers: [{ name: 'Ada', subject: 'ada-sub', issuer: 'https://id.example', at: '2025-06-01T12:01:00.000Z' }, { name: 'Ben', subject: 'ben-sub', issuer: 'https://id.example', at: '2025-06-01T12:02:00.000Z' }] },
    };
    const text = formatQuestionDetail({ question, audit: [] }, NOW);
    assert.match(text, /^ {2}principal +host-1 \(https:\/\/id\.example\)$/m);
    assert.match(text, /^ {2}client +claude-code$/m);
    assert.match(text, /^ {2}arguments +\{"service":"payments-api","apiKey":"\[redacted\]"\}$/m);
    assert.match(text, /^ {2}approvals +2 of 2: Ada <ada-sub>, Ben <ben-sub>$/m);
    assert.match(text, /^ {2}answered by +operator Ben <ben-sub>$/m);
  });

  it('shows the record, the form fields and the audit trail', () => {
    const text = formatQuestionDetail(
      {
        question: settled(RESTART_QUESTION, 'answered', { kind: 'operator', name: 'Ada' }),
        audit: [
          { questionId: 'q-restart', at: '2025-06-01T12:00:00.000Z', actor: 'gateway', action: 'created' },
          { questionId: 'q-restart', at: '2025-06-01T12:03:00.000Z', actor: 'operator:Ada', action: 'answered', detail: { action: 'accept' } },
        ],
      },
      NOW,
    );
    assert.equal(
      text,
      [
        'Question q-restart',
        '  state        answered',
        '  method       elicitation/create (elicitation)',
        '  upstream     desk',
        '  tool         restart_service',
        '  route        host-then-operator, put to operator',
        '  created      2025-06-01T12:00:00.000Z (5m ago)',
        '  deadline     2025-06-01T12:10:00.000Z',
        '  updated      2025-06-01T12:03:00.000Z',
        '  settled      2025-06-01T12:03:00.000Z',
        '  answered by  operator Ada',
        '',
        'Message',
        '  Restart payments-api? This drops in-flight requests.',
        '',
        'Fields',
        '  confirm: yes/no, required',
        '      Tick to approve the restart',
        '  ticket: text, required',
        '      Change ticket number, e.g. CHG-2291',
        '  replicas: whole number, 1 to 5',
        '  teams: choices separated by commas',
        '      choices: 1) db (Database), 2) net (Network)',
        '',
        'Audit trail',
        '  2025-06-01T12:00:00.000Z  gateway       created',
        '  2025-06-01T12:03:00.000Z  operator:Ada  answered  {"action":"accept"}',
        '',
      ].join('\n'),
    );
  });

  it('shows a URL-mode elicitation\'s URL, a sampling request\'s messages and how to answer roots', () => {
    assert.match(formatQuestionDetail({ question: URL_QUESTION, audit: [] }, NOW), /\nURL\n {2}https:\/\/crm\.example\/auth\n\nAudit trail\n {2}\(empty\)\n$/);
    assert.match(formatQuestionDetail({ question: SAMPLING_QUESTION, audit: [] }, NOW), /\nMessages\n {2}user: Summarise INC-1042\n {4}in one line\n {2}\(at most 200 tokens\)\n/);
    assert.match(formatQuestionDetail({ question: ROOTS_QUESTION, audit: [] }, NOW), /Asks for the host's roots \(answer with --result/);
  });
});

describe('apiErrorText', () => {
  const settledByHost = settled(RESTART_QUESTION, 'answered', { kind: 'host', sessionId: 's-42' });
  const cases: [string, OperatorApiError, string][] = [
    ['401', new OperatorApiError(401, 'Send Authorization: Bearer <operator token>', { code: 'UNAUTHORIZED' }), 'the token was refused (give the operator token with --token or SWITCHBOARD_CONSOLE_TOKEN)'],
    [
      '400 INVALID_ANSWER with a field',
      new OperatorApiError(400, 'field "ticket": required', { code: 'INVALID_ANSWER', field: 'ticket' }),
      'the answer was refused (field ticket): field "ticket": required; the question stays open',
    ],
    ['400 INVALID_BODY', new OperatorApiError(400, 'unknown key', { code: 'INVALID_BODY', field: 'extra' }), 'the request was refused (field extra): unknown key'],
    ['404 QUESTION_NOT_FOUND', new OperatorApiError(404, 'No such question', { code: 'QUESTION_NOT_FOUND' }), 'no question has the id "q-9"'],
    ['404 without a catalogue body', new OperatorApiError(404, 'HTTP 404 without an operator API error body'), 'HTTP 404: is this a Switchboard gateway with the operator API enabled?'],
    ['409 settled by the host', new OperatorApiError(409, 'settled', { code: 'ALREADY_SETTLED', question: settledByHost }), 'question q-9 was already settled: answered by its host (session s-42) at 2025-06-01T12:03:00.000Z'],
    [
      '409 expired',
      new OperatorApiError(409, 'settled', { code: 'ALREADY_SETTLED', question: settled(RESTART_QUESTION, 'expired', { kind: 'gateway', reason: 'deadline passed' }) }),
      'question q-9 was already settled: expired by the gateway (deadline passed) at 2025-06-01T12:03:00.000Z',
    ],
    ['500', new OperatorApiError(500, 'Internal error', { code: 'INTERNAL' }), 'the gateway refused the request: HTTP 500 INTERNAL: Internal error'],
  ];
  for (const [name, error, text] of cases) {
    it(name, () => assert.equal(apiErrorText(error, 'q-9', 'sekrit-token'), text));
  }

  it('never shows the token, even when the server\'s message holds it', () => {
    const text = apiErrorText(new OperatorApiError(500, 'boom sekrit-token boom', { code: 'INTERNAL', field: 'sekrit-token' }), 'q-9', 'sekrit-token');
    assert.doesNotMatch(text, /sekrit-token/);
    assert.match(text, /boom \[redacted\] boom/);
    assert.equal(redact('a', ''), 'a');
  });
});
