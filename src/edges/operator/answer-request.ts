/** @module Reads the body of POST /api/questions/{id}/answer: content type, size cap, UTF-8 JSON, the documented shape. */

import type { QuestionAnswer } from '../../questions/question.js';
import { readJsonBody } from '../http/read-json.js';
import { isJsonContentType } from '../http/request-guards.js';
import { answerRequestSchema } from './api-schemas.js';
import { OperatorProblem } from './operator-errors.js';
import { firstProblem } from './zod-problem.js';

/** An answer may be up to 1 MB (the desk's limit); the margin covers the envelope and JSON escaping. */
export const MAX_ANSWER_BODY_BYTES = 1024 * 1024 + 64 * 1024;

export interface AnswerBodyLimits {
  maxBodyBytes: number;
  /** `http.maxJsonDepth`: deeper JSON is INVALID_BODY, refused before it is parsed. */
  maxJsonDepth: number;
}

/** The answer in the body; anything else is thrown as the OperatorProblem the API answers with. */
export async function readAnswerRequest(req: Request, limits: AnswerBodyLimits): Promise<QuestionAnswer> {
  if (!isJsonContentType(req.headers.get('content-type'))) {
    await req.body?.cancel().catch(() => undefined);
    throw new OperatorProblem('UNSUPPORTED_MEDIA_TYPE', 'Send the answer as Content-Type: application/json');
  }
  const body = await readJsonBody(req, limits);
  if (body.kind === 'too-large') throw new OperatorProblem('BODY_TOO_LARGE', `The body is larger than ${limits.maxBodyBytes} bytes`);
  if (body.kind === 'not-json') throw new OperatorProblem('INVALID_JSON', 'The body is not valid UTF-8 JSON');
  if (body.kind === 'too-deep') throw new OperatorProblem('INVALID_BODY', `The body nests deeper than ${body.maxDepth} levels (http.maxJsonDepth)`);
  const { value } = body;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new OperatorProblem('INVALID_BODY', 'The body must be a JSON object such as {"action":"decline"}', { field: 'action' });
  }
  const parsed = answerRequestSchema.safeParse(value);
  if (!parsed.success) {
    const { field, message } = firstProblem(parsed.error);
    throw new OperatorProblem('INVALID_BODY', `${field}: ${message}`, { field });
  }
  const { action, content, result } = parsed.data;
  if (action !== 'accept' && (content !== undefined || result !== undefined)) {
    const field = content !== undefined ? 'content' : 'result';
    throw new OperatorProblem('INVALID_BODY', `${field}: only an accept carries ${field}`, { field });
  }
  if (content !== undefined && result !== undefined) {
    throw new OperatorProblem('INVALID_BODY', 'result: an answer carries content (elicitation) or result (sampling, roots), not both', { field: 'result' });
  }
  const answer: QuestionAnswer = { action };
  if (content !== undefined) answer.content = content;
  if (result !== undefined) answer.result = result;
  return answer;
}
