/** @module The `policy` section: which principals may use which tools, resources and prompts, and which operators may answer which questions. */

import { z } from 'zod';

const globs = (description: string) => z.array(z.string().min(1)).min(1).meta({ description });

const principalMatchers = {
  subjects: globs('Globs over the principal\'s subject (`*` any run, `?` one character).').optional(),
  groups: globs('The principal holds at least one of these groups (the groups claim of its token, or an API key\'s groups).').optional(),
  scopes: globs('The principal\'s token holds every one of these scopes.').optional(),
};

const ruleSchema = z
  .strictObject({
    effect: z.enum(['allow', 'deny']).meta({ description: 'What the rule does to the targets it covers, for the principals it names.' }),
    ...principalMatchers,
    tools: globs('Globs over tool names as hosts see them (`*restart_service`, `desk_*`).').optional(),
    resources: globs('Globs over resource URIs as hosts see them.').optional(),
    prompts: globs('Globs over prompt names as hosts see them.').optional(),
  })
  .meta({ description: 'A policy rule. Every matcher it names must match; with no tools/resources/prompts it covers everything, else only the kinds it lists.' });

const answererSchema = z
  .strictObject({
    ...principalMatchers,
    upstreams: globs('Globs over upstream names (absent: every upstream).').optional(),
    tools: globs('Globs over the tool names hosts see, of the call that asked (absent: every tool).').optional(),
  })
  .meta({ description: 'Operators this rule names may see and answer the questions of the upstreams and tools it names.' });

export const policySchema = z
  .strictObject({
    default: z.enum(['allow', 'deny']).default('allow').meta({ description: 'What a target no rule covers gets (allow: as without a policy).' }),
    rules: z.array(ruleSchema).default(() => []).meta({ description: 'Evaluated at the gateway before anything reaches an upstream; deny wins. A tool a principal may not call is not listed to it.' }),
    answerers: z
      .array(answererSchema)
      .default(() => [])
      .meta({ description: 'Which operators may answer which questions (empty: every operator may answer every question). A question shows only to operators who may answer it.' }),
  })
  .meta({ description: 'Access policy between host principals and upstreams, and between operators and questions.' });
