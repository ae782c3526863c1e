/** @module Question views for the CLI's tests: the restart approval, a sampling request, a roots request, a URL-mode elicitation. */

import { VECTOR_ELICIT_PARAMS } from '../../../examples/incident-desk/testing/restart-vector.js';
import type { QuestionView } from '../../edges/operator/api-schemas.js';

/** The pinned restart approval's form (confirm, ticket), which the CLI's restart question extends. */
const VECTOR_SCHEMA = VECTOR_ELICIT_PARAMS.requestedSchema as { type: string; properties: Record<string, unknown>; required: string[] };

const BASE = {
  upstream: 'desk',
  tool: 'restart_service',
  route: 'host-then-operator',
  audience: 'operator',
  deadline: '2025-06-01T12:10:00.000Z',
  createdAt: '2025-06-01T12:00:00.000Z',
  updatedAt: '2025-06-01T12:00:01.000Z',
} as const;

export const RESTART_QUESTION: QuestionView = {
  ...BASE,
  id: 'q-restart',
  state: 'delivered',
  method: 'elicitation/create',
  params: {
    message: VECTOR_ELICIT_PARAMS.message,
    requestedSchema: {
      ...VECTOR_SCHEMA,
      properties: {
        ...VECTOR_SCHEMA.properties,
        replicas: { type: 'integer', minimum: 1, maximum: 5 },
        teams: { type: 'array', items: { anyOf: [{ const: 'db', title: 'Database' }, { const: 'net', title: 'Network' }] } },
      },
    },
    mode: 'form',
  },
};

export const SAMPLING_QUESTION: QuestionView = {
  ...BASE,
  id: 'q-sampling',
  state: 'pending',
  method: 'sampling/createMessage',
  tool: 'summarize_incident',
  params: { messages: [{ role: 'user', content: { type: 'text', text: 'Summarise INC-1042\nin one line' } }], maxTokens: 200 },
};

export const ROOTS_QUESTION: QuestionView = { ...BASE, id: 'q-roots', state: 'pending', method: 'roots/list', params: {} };

export const URL_QUESTION: QuestionView = {
  ...BASE,
  id: 'q-url',
  state: 'delivered',
  method: 'elicitation/create',
  params: { mode: 'url', message: 'Sign in to the CRM', url: 'https://crm.example/auth', elicitationId: 'e-1' },
};

/** `question` settled by `answeredBy`. */
export function settled(question: QuestionView, state: QuestionView['state'], answeredBy: NonNullable<QuestionView['answeredBy']>): QuestionView {
  return { ...question, state, answeredBy, settledAt: '2025-06-01T12:03:00.000Z', updatedAt: '2025-06-01T12:03:00.000Z' };
}
