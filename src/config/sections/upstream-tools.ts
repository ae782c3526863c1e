/** @module An upstream's `tools`: which of its tools are exposed and under which names, with allow, deny and rename kept consistent. */

import { z } from 'zod';

import { custom } from './fields.js';

/** Characters MCP tool names may use (1 to 128 of them). */
export const TOOL_NAME_PATTERN = '^[A-Za-z0-9_.-]{1,128}$';

export const toolsSchema = z
  .strictObject({
    allow: z
      .array(z.string().min(1))
      .optional()
      .meta({ description: 'When set, only these tools (by original name) are exposed.' }),
    deny: z
      .array(z.string().min(1))
      .default(() => [])
      .meta({ description: 'Tools (by original name) that are never exposed.' }),
    rename: z
      .record(
        z.string().min(1),
        z.string().regex(new RegExp(TOOL_NAME_PATTERN), { error: 'must be a tool name of 1 to 128 letters, digits, _, - or .' }),
      )
      .default(() => ({}))
      .meta({ description: 'Original tool name -> exposed name, applied before the naming strategy.' }),
  })
  .superRefine((tools, ctx) => {
    const allow = tools.allow === undefined ? undefined : new Set(tools.allow);
    const deny = new Set(tools.deny);
    tools.deny.forEach((name, index) => {
      if (allow?.has(name)) custom(ctx, `"${name}" is also in tools.allow (list it in one or the other)`, ['deny', index]);
    });
    // Exposed name -> the original tool that gets it, for the names known from the config itself.
    const exposedBy = new Map<string, string>();
    for (const name of tools.allow ?? []) if (!(name in tools.rename) && !deny.has(name)) exposedBy.set(name, name);
    for (const [original, exposed] of Object.entries(tools.rename)) {
      const path = ['rename', original];
      if (deny.has(original)) custom(ctx, `renames "${original}", which tools.deny hides`, path);
      else if (allow !== undefined && !allow.has(original)) custom(ctx, `renames "${original}", which is not in tools.allow`, path);
      else {
        const holder = exposedBy.get(exposed);
        if (holder !== undefined && holder !== original) custom(ctx, `"${exposed}" is already the exposed name of tool "${holder}"`, path);
        else exposedBy.set(exposed, original);
      }
    }
  })
  .meta({ description: 'Which tools of this upstream are exposed, and under which names.' });
