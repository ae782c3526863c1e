/** @module The one serialiser of a question for operator surfaces (REST API, live events, console): the record with its origin flattened. */

import type { QuestionRecord } from '../../questions/question.js';
import type { QuestionView } from './api-schemas.js';

/** The record as the API shows it: `origin`'s fields at the top level, absent fields left out. */
export function toQuestionView(record: QuestionRecord): QuestionView {
  const { origin } = record;
  const view: QuestionView = {
    id: record.id,
    state: record.state,
    method: record.method,
    params: record.params,
    upstream: origin.upstream,
    route: record.route,
    audience: record.audience,
    deadline: record.deadline,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
  if (record.hostParams !== undefined) view.hostParams = record.hostParams;
  if (origin.tool !== undefined) view.tool = origin.tool;
  if (origin.hostSessionId !== undefined) view.hostSessionId = origin.hostSessionId;
  if (origin.principal !== undefined) view.principal = origin.principal;
  if (origin.clientName !== undefined) view.clientName = origin.clientName;
  if (origin.arguments !== undefined) view.arguments = origin.arguments;
  if (origin.hostRevision !== undefined) view.hostRevision = origin.hostRevision;
  if (record.audienceReason !== undefined) view.audienceReason = record.audienceReason;
  if (record.answer !== undefined) view.answer = record.answer;
  if (record.answeredBy !== undefined) view.answeredBy = record.answeredBy;
  if (record.settledAt !== undefined) view.settledAt = record.settledAt;
  return view;
}
