/** @module The `composites` section: composite tools by name, given inline or as the path of a YAML file; each one is composite/schema.ts with the config's duration fields. */

import { z } from 'zod';

import { compositeSchema } from '../../composite/schema.js';
import { duration } from './fields.js';
import { TOOL_NAME_PATTERN } from './upstream-tools.js';
import { upstreamNameSchema } from './upstreams.js';

const compositesMapSchema = z
  .record(
    z.string().regex(new RegExp(TOOL_NAME_PATTERN), { error: 'is not a valid tool name (1 to 128 letters, digits, _, - or .)' }),
    compositeSchema({ duration, upstreamName: upstreamNameSchema }),
  )
  .meta({ description: 'Composite tools by name (the name hosts see).' });

export const compositesSchema = z
  .union([z.string().min(1).meta({ description: 'A YAML file, relative to this one, holding the map of composites.' }), compositesMapSchema], {
    error: 'must be a map of composite tools or the path of a YAML file holding one',
  })
  .meta({ description: 'Composite tools: workflows over upstream tools and questions, each exposed as one tool. A map, or the path of a YAML file holding it.' });
