/** @module Run-time lists of the desk's closed vocabularies, checked by the compiler against the domain types. */

import type { Answerer, Audience, QuestionAnswer, QuestionMethod, QuestionState, RoutePolicy } from '../questions/question.js';

// Each record must name every member of its type and nothing else, so a new member fails to compile here.
const methods: Record<QuestionMethod, true> = { 'elicitation/create': true, 'sampling/createMessage': true, 'roots/list': true };
const states: Record<QuestionState, true> = {
  pending: true,
  delivered: true,
  answered: true,
  declined: true,
  cancelled: true,
  expired: true,
  abandoned: true,
};
const routes: Record<RoutePolicy, true> = { host: true, 'host-then-operator': true, operator: true, both: true };
const audiences: Record<Audience, true> = { host: true, operator: true, both: true, none: true };
const actions: Record<QuestionAnswer['action'], true> = { accept: true, decline: true, cancel: true };
const answererKinds: Record<Answerer['kind'], true> = { host: true, operator: true, gateway: true };

function member<T extends string>(set: Record<T, true>) {
  return (value: unknown): value is T => typeof value === 'string' && Object.hasOwn(set, value);
}

export const isQuestionMethod = member(methods);
export const isQuestionState = member(states);
export const isRoutePolicy = member(routes);
export const isAudience = member(audiences);
export const isAnswerAction = member(actions);
export const isAnswererKind = member(answererKinds);
