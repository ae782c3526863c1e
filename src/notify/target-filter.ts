/** @module Whether a webhook target wants an event: one of its `events`, a question of its `upstreams` and `tools` (globs). */

import { anyGlob } from '../access/glob.js';
import type { NotifyEventType, NotifyTarget } from '../config/types.js';
import type { QuestionRecord } from '../questions/question.js';

export function wants(target: NotifyTarget, type: NotifyEventType, record: QuestionRecord): boolean {
  if (!target.events.includes(type)) return false;
  if (target.upstreams !== undefined && !anyGlob(target.upstreams, record.origin.upstream)) return false;
  // A question no call explains names no tool, so a tool list never matches it.
  if (target.tools !== undefined && (record.origin.tool === undefined || !anyGlob(target.tools, record.origin.tool))) return false;
  return true;
}
