/** @module The process the durability test kills: writes to a store, says so once every write has resolved, then waits to be killed. */

import { makeQuestion } from '../../testing/question-fixtures.js';
import { openSqliteQuestionStore } from '../sqlite-question-store.js';

// argv: the store file, then the ids to use for the settled and the still-open question.
const [path, settledId, openId] = process.argv.slice(2);
if (path === undefined || settledId === undefined || openId === undefined) throw new Error('usage: durability-child.ts FILE SETTLED_ID OPEN_ID');

const store = await openSqliteQuestionStore({ path, owner: 'child' });
await store.create(makeQuestion({ id: settledId }), { actor: 'gateway', action: 'created' });
await store.transition(settledId, { from: ['pending'], to: 'delivered', audit: { actor: 'gateway', action: 'delivered' } });
await store.audit({ questionId: settledId, actor: 'host:host-1', action: 'rejected-answer', detail: { field: 'ticket' } });
await store.transition(settledId, {
  from: ['delivered'],
  to: 'answered',
  answer: { action: 'accept', content: { confirm: true, ticket: 'CHG-2291' } },
  answeredBy: { kind: 'host', sessionId: 'host-1' },
  audit: { actor: 'host:host-1', action: 'answered' },
});
await store.create(makeQuestion({ id: openId }), { actor: 'gateway', action: 'created' });
await store.transition(openId, { from: ['pending'], to: 'delivered', audit: { actor: 'gateway', action: 'delivered' } });

// Every write above has resolved. Say so, and keep the store open (never closed, never checkpointed) until killed.
process.stdout.write('written\n');
setInterval(() => {}, 60_000);
