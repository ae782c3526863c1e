/** @module An answer as the desk keeps it (store, audit, operator reads, events): secret fields "[redacted]"; the upstream gets the real one. */

import type { JsonObject } from '../protocol/jsonrpc.js';
import { contentAtRest } from '../protocol/secret-fields.js';
import type { QuestionAnswer, QuestionMethod } from './question.js';

export function answerAtRest(method: QuestionMethod, params: JsonObject, answer: QuestionAnswer): QuestionAnswer {
  if (method !== 'elicitation/create' || answer.content === undefined) return answer;
  return { ...answer, content: contentAtRest(params, answer.content) };
}
