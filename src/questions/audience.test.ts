/** @module Table of who is asked for every route policy, host ability, consent verdict and operator presence. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { Audience, RoutePolicy } from './question.js';
import { decideAudience } from './audience.js';

const CANNOT = 'the host did not declare elicitation';
// [policy, host can receive, consent question, operator available] -> audience, with `questions.consent: host` (the default)
const table: [RoutePolicy, boolean, boolean, boolean, Audience][] = [
  ['host', true, false, true, 'host'],
  ['host', true, true, true, 'host'],
  ['host', false, false, true, 'none'],
  ['host', false, true, false, 'none'],
  ['host-then-operator', true, false, true, 'host'],
  ['host-then-operator', true, true, true, 'host'],
  ['host-then-operator', true, true, false, 'host'],
  ['host-then-operator', false, true, true, 'operator'],
  ['host-then-operator', false, false, true, 'operator'],
  ['host-then-operator', false, false, false, 'none'],
  ['operator', true, false, true, 'operator'],
  ['operator', true, false, false, 'none'],
  ['operator', false, true, true, 'operator'],
  ['both', true, false, true, 'both'],
  ['both', true, true, true, 'both'],
  ['both', true, false, false, 'host'],
  ['both', false, false, true, 'operator'],
  ['both', false, false, false, 'none'],
];

// The same with `questions.consent: operator`: a consent question goes to an operator whenever one exists, except
// under an explicit `route: host`.
const consentToOperator: [RoutePolicy, boolean, boolean, boolean, Audience][] = [
  ['host', true, true, true, 'host'],
  ['host-then-operator', true, true, true, 'operator'],
  ['host-then-operator', true, true, false, 'host'],
  ['host-then-operator', true, false, true, 'host'],
  ['both', true, true, true, 'operator'],
  ['both', true, true, false, 'host'],
  ['both', true, false, true, 'both'],
  ['operator', true, true, true, 'operator'],
];

for (const [consentTo, rows] of [['host', table], ['operator', consentToOperator]] as const) {
  for (const [policy, hostCan, consent, operatorAvailable, expected] of rows) {
    test(`consent to ${consentTo}, ${policy}: host ${hostCan ? 'can' : 'cannot'} receive, ${consent ? 'consent' : 'plain'} question, operator ${operatorAvailable ? 'present' : 'absent'} -> ${expected}`, () => {
      const decision = decideAudience({
        policy,
        hostCannot: hostCan ? undefined : CANNOT,
        consent: consent ? 'a lone yes/no approval' : undefined,
        consentTo,
        operatorAvailable,
      });
      assert.equal(decision.audience, expected);
      if (expected === 'none') assert.ok(decision.reason, 'a question nobody is asked says why');
      if (consentTo === 'operator' && hostCan && consent && operatorAvailable && policy !== 'host' && policy !== 'operator') assert.match(decision.reason ?? '', /consent question/);
    });
  }
}
