/** @module The JSON Schema of the config file, generated from the zod schema (for editors; committed as schema/config.json). */

import { z } from 'zod';
import { configSchema } from './schema.js';

export const CONFIG_SCHEMA_ID = 'urn:switchboard:config';

/** The JSON Schema (draft 2020-12) of the file as written: inputs, not the normalized values. */
export function configJsonSchema(): object {
  const { $schema, ...rest } = z.toJSONSchema(configSchema, { io: 'input', target: 'draft-2020-12' });
  return { $schema, $id: CONFIG_SCHEMA_ID, ...rest };
}

/** schema/config.json as it must be committed: pretty-printed with a trailing newline. */
export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}
