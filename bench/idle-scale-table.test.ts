/** @module Tests of cell 6's per-session figures and goal line (at most 8 KB of gateway RSS per idle session). */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { GatewayMemory, IdleScaleFigures } from './idle-scale-cell.js';
import { idleScaleGoal, perSession } from './idle-scale-table.js';

const MB = 2 ** 20;

function memory(rssMb: number, heapMb: number): GatewayMemory {
  return { rssBytes: (rssMb + 1) * MB, rssCollectedBytes: rssMb * MB, heapUsedBytes: heapMb * MB, heapTotalBytes: heapMb * MB, newSpaceBytes: 0, externalBytes: 0, arrayBuffersBytes: 0 };
}

function figures(opened: number, before: GatewayMemory, after: GatewayMemory): IdleScaleFigures {
  return { requested: opened, opened, failedOpens: 0, openSeconds: 1, before, after };
}

test('per session is the growth of the collected RSS and of the heap divided by the sessions opened', () => {
  const per = perSession(figures(1024, memory(100, 20), memory(110, 26)));
  assert.equal(per.rssBytes, 10 * 1024);
  assert.equal(per.heapUsedBytes, 6 * 1024);
});

test('the goal is met at 8 KB per session and missed above it', () => {
  assert.match(idleScaleGoal({ ran: figures(1024, memory(100, 20), memory(108, 24)) }), /: 8\.0 KB meets the goal$/);
  assert.match(idleScaleGoal({ ran: figures(1024, memory(100, 20), memory(109, 24)) }), /: 9\.0 KB MISSES the goal$/);
});

test('a cell that failed is not measured', () => {
  assert.match(idleScaleGoal({ failed: 'start: boom' }), /: not measured$/);
});
