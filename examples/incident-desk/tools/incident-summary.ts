/** @module incident-desk/tools/incident-summary: the two summaries of an incident, by the host's model or built locally. */
import type { CreateMessageRequestParamsBase, CreateMessageResult, CreateMessageResultWithTools } from '@modelcontextprotocol/server';

import type { Incident } from '../data.js';

/** What the host's model is asked to summarise. */
export function summarySamplingParams(incident: Incident): CreateMessageRequestParamsBase {
  return {
    systemPrompt: 'You are an incident commander. Answer in at most three sentences.',
    messages: [
      {
        role: 'user',
        content: {
          type: 'text',
          text: [
            `Summarise incident ${incident.id} for a status update.`,
            `Title: ${incident.title}`,
            `Severity: ${incident.severity}, status: ${incident.status}, service: ${incident.service}`,
            'Timeline:',
            ...incident.timeline.map((entry) => `- ${entry}`),
          ].join('\n'),
        },
      },
    ],
    maxTokens: 300,
  };
}

/** A summary built without any model, for hosts that cannot sample. */
export function plainSummary(incident: Incident): string {
  const latest = incident.timeline.at(-1) ?? 'no timeline entries yet';
  return (
    `${incident.id} (${incident.severity}, ${incident.status}) on ${incident.service}: ${incident.title}. ` +
    `Latest: ${latest}. [plain summary: the host offers no sampling]`
  );
}

/** The text blocks of the model's reply, joined and trimmed ('' when it has none). */
export function sampledText(result: CreateMessageResult | CreateMessageResultWithTools): string {
  const blocks = Array.isArray(result.content) ? result.content : [result.content];
  return blocks
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join('\n')
    .trim();
}
