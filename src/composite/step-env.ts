/** @module What a step runs with: its composite, run, limits, template scope, abort signal, journal and context. */

import type { CompositeLimits } from './definition.js';
import type { RunContext } from './ports.js';
import type { RunJournal } from './run-journal.js';
import type { TemplateScope } from './template/ast.js';

/** What a step runs with. `signal` aborts when the run stops; `scope` is what its templates see. */
export interface StepEnv {
  composite: string;
  runId: string;
  limits: CompositeLimits;
  scope: TemplateScope;
  signal: AbortSignal;
  journal: RunJournal;
  context: RunContext;
}
