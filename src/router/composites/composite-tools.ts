/**
 * @module Composite tools in host sessions: their tools/list entries (annotated no safer than the tools they
 * call), and each call run by the composer with the gateway's ports: step tool calls forwarded like the host's
 * own, elicit steps asked through the desk, progress to the host, the run recorded.
 */

import { randomUUID } from 'node:crypto';

import { compositeAnnotations } from '../../composite/annotations.js';
import type { CompositeDefinition, CompositeStep } from '../../composite/definition.js';
import type { ToolCaller } from '../../composite/ports.js';
import type { RunRecord } from '../../composite/run-record.js';
import type { RunRecorder } from '../../composite/run-store.js';
import { runComposite } from '../../composite/runner.js';
import type { JsonObject, JsonRpcRequest } from '../../protocol/jsonrpc.js';
import { isObject } from '../../protocol/jsonrpc.js';
import type { QuestionDesk } from './composite-elicitation.js';
import { CompositeQuestions } from './composite-elicitation.js';
import type { Logger } from '../../core/log.js';

/** What one composite call gets from its host session. */
export interface CompositeCallPorts {
  hostSessionId: string;
  /** The calling host's principal, as a person reads it (absent: hosts do not authenticate). */
  principal?: string;
  /** Aborted when the host cancels the call or its session closes. */
  signal: AbortSignal;
  /** The host session: questions are put and withdrawn through it. */
  desk: QuestionDesk;
  callTool: ToolCaller['callTool'];
  readResource: ToolCaller['readResource'];
  /** Set when the host asked for progress: one notification per finished step. */
  progress?: (progress: number, total: number, message: string) => void;
}

export class CompositeTools {
  #byName: Map<string, CompositeDefinition>;
  #recorder: RunRecorder | undefined;
  #logger: Logger;

  constructor(definitions: readonly CompositeDefinition[], options: { recorder?: RunRecorder; logger: Logger }) {
    this.#byName = new Map(definitions.map((definition) => [definition.name, definition]));
    this.#recorder = options.recorder;
    this.#logger = options.logger;
  }

  get size(): number {
    return this.#byName.size;
  }

  has(name: unknown): name is string {
    return typeof name === 'string' && this.#byName.has(name);
  }

  /** The tools/list entries; `toolsOf` lists an upstream's own tools (for the annotations of the tools a composite calls). */
  async entries(toolsOf: (upstream: string) => Promise<JsonObject[]>): Promise<JsonObject[]> {
    const lists = new Map<string, Promise<JsonObject[]>>();
    const listOf = (upstream: string) => {
      let list = lists.get(upstream);
      if (!list) {
        list = toolsOf(upstream).catch(() => []);
        lists.set(upstream, list);
      }
      return list;
    };
    const out: JsonObject[] = [];
    for (const definition of this.#byName.values()) {
      const called = await Promise.all(
        toolSteps(definition.steps).map(async ({ upstream, tool }) => {
          const found = (await listOf(upstream)).find((entry) => entry.name === tool);
          // A tool not listed (its upstream is down) says nothing: the composite is then as unsafe as can be.
          return found && isObject(found.annotations) ? found.annotations : undefined;
        }),
      );
      const entry: JsonObject = {
        name: definition.name,
        description: definition.description,
        inputSchema: definition.inputSchema,
        annotations: compositeAnnotations(called),
      };
      if (definition.outputSchema) entry.outputSchema = definition.outputSchema;
      out.push(entry);
    }
    return out;
  }

  /** Runs the composite `name` for a host's tools/call; resolves with the host's result (an isError one when a step failed). */
  async run(name: string, request: JsonRpcRequest, ports: CompositeCallPorts): Promise<JsonObject> {
    const definition = this.#byName.get(name) as CompositeDefinition;
    const runId = randomUUID();
    const questions = new CompositeQuestions({ composite: name, runId, streamId: request.id, desk: ports.desk });
    const args = request.params?.arguments;
    let record: RunRecord | undefined;
    questions.onRecorded = (askId, questionId) => {
      const asked = questions.stepOf(askId);
      const step = record?.steps.find((s) => s.questionId === undefined && s.kind === 'elicit' && s.state === 'running' && (asked === undefined || asked === s.id));
      if (!step || !record) return;
      step.questionId = questionId;
      this.#recorder?.changed(record, step);
    };
    const total = countSteps(definition.steps);
    const outcome = await runComposite(definition, {
      input: isObject(args) ? args : {},
      signal: ports.signal,
      tools: { callTool: ports.callTool, readResource: ports.readResource },
      asker: questions,
      logger: this.#logger,
      hostSessionId: ports.hostSessionId,
      ...(ports.principal === undefined ? {} : { principal: ports.principal }),
      newId: () => runId,
      observer: {
        changed: (run, step) => {
          record = run;
          this.#recorder?.changed(run, step);
          if (step && ports.progress && isFinished(step.state)) {
            const done = run.steps.filter((s) => isFinished(s.state)).length;
            ports.progress(done, Math.max(total, done), `${step.id}: ${step.state}`);
          }
        },
      },
    });
    await this.#recorder?.flush();
    return outcome.result;
  }
}

function isFinished(state: string): boolean {
  return state === 'completed' || state === 'skipped' || state === 'failed' || state === 'aborted';
}

/** Every tool step, forEach's inner ones included. */
function toolSteps(steps: readonly CompositeStep[]): { upstream: string; tool: string }[] {
  const out: { upstream: string; tool: string }[] = [];
  for (const step of steps) {
    if (step.kind === 'tool') out.push({ upstream: step.upstream, tool: step.tool });
    if (step.kind === 'forEach' && step.step.kind === 'tool') out.push({ upstream: step.step.upstream, tool: step.step.tool });
  }
  return out;
}

function countSteps(steps: readonly CompositeStep[]): number {
  return steps.length;
}
