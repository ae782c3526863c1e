/** @module incident-desk/resources/roster: the fixed on-call roster resource, `incident://oncall/roster`. */
import type { McpServer } from '@modelcontextprotocol/server';

import { ROSTER } from '../data.js';

export const ROSTER_URI = 'incident://oncall/roster';

export function registerRosterResource(server: McpServer): void {
  server.registerResource(
    'oncall-roster',
    ROSTER_URI,
    { title: 'On-call roster', description: 'Who is on call for each team right now', mimeType: 'application/json' },
    (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ shifts: ROSTER }, null, 2) }],
    }),
  );
}
