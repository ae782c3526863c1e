/** @module Reads the body of POST /api/questions/{id}/answer: content type, size cap, UTF-8 JSON, the documented shape. */

import type { QuestionAnswer } from '../../broker/question.js';
import { readBodyCapped } from '../read-body.js';
import { isJsonContentType } from '../request-guards.js';
import { answerRequestSchema } from './api-schemas.js';
import { operatorError } from './operator-errors.js';
import { firstProblem } from './zod-problem.js';

/** An answer may be up to 1 MB (the broker's limit); the margin covers the envelope and JSON escaping. */
export const MAX_ANSWER_BODY_BYTES = 1024 * 1024 + 64 * 1024;

export type AnswerRequestResult = { ok: true; answer: QuestionAnswer } | { ok: false; response: Response };

const failed = (response: Response): AnswerRequestResult => ({ ok: false, response });

export async function readAnswerRequest(req: Request, maxBytes = MAX_ANSWER_BODY_BYTES): Promise<AnswerRequestResult> {
  if (!isJsonContentType(req.headers.get('content-type'))) {
    await req.body?.cancel().catch(() => undefined);
    return failed(operatorError('UNSUPPORTED_MEDIA_TYPE', 'Send the answer as Content-Type: application/json'));
  }
  const body = await readBodyCapped(req, maxBytes);
  if (body.kind === 'too-large') return failed(operatorError('BODY_TOO_LARGE', `The body is larger than ${maxBytes} bytes`));
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body.bytes));
  } catch {
    return failed(operatorError('INVALID_JSON', 'The body is not valid UTF-8 JSON'));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return failed(operatorError('INVALID_BODY', 'The body must be a JSON object such as {"action":"decline"}', { field: 'action' }));
  }
  const parsed = answerRequestSchema.safeParse(value);
  if (!parsed.success) {
    const { field, message } = firstProblem(parsed.error);
    return failed(operatorError('INVALID_BODY', `${field}: ${message}`, { field }));
  }
  const { action, content, result } = parsed.data;
  if (action !== 'accept' && (content !== undefined || result !== undefined)) {
    const field = content !== undefined ? 'content' : 'result';
    return failed(operatorError('INVALID_BODY', `${field}: only an accept carries ${field}`, { field }));
  }
  if (content !== undefined && result !== undefined) {
    return failed(operatorError('INVALID_BODY', 'result: an answer carries content (elicitation) or result (sampling, roots), not both', { field: 'result' }));
  }
  const answer: QuestionAnswer = { action };
  if (content !== undefined) answer.content = content;
  if (result !== undefined) answer.result = result;
  return { ok: true, answer };
}
