/** @module A tracer that keeps its spans in memory, for tests of what is traced (names, parents, attributes, events). */

import type { SpanAttributes, SpanKind, SpanOptions, TraceCarrier, TraceSpan, Tracer } from '../trace-port.js';

export class RecordedSpan implements TraceSpan {
  readonly recording = true;
  readonly name: string;
  readonly kind: SpanKind;
  readonly parent: RecordedSpan | TraceCarrier | undefined;
  readonly links: readonly TraceSpan[];
  readonly attributes: Record<string, string | number | boolean> = {};
  readonly events: { name: string; attributes: Record<string, string | number | boolean> }[] = [];
  readonly id: string;
  failed: { message: string; type?: string } | undefined;
  ended = false;

  constructor(name: string, options: SpanOptions, parent: RecordedSpan | TraceCarrier | undefined, id: number) {
    this.name = name;
    this.kind = options.kind ?? 'internal';
    this.parent = parent;
    this.links = options.links ?? [];
    this.id = id.toString(16).padStart(16, '0');
    this.setAttributes(options.attributes ?? {});
  }

  setAttributes(attributes: SpanAttributes): void {
    for (const [key, value] of Object.entries(attributes)) if (value !== undefined) this.attributes[key] = value;
  }

  addEvent(name: string, attributes: SpanAttributes = {}): void {
    const kept: Record<string, string | number | boolean> = {};
    for (const [key, value] of Object.entries(attributes)) if (value !== undefined) kept[key] = value;
    this.events.push({ name, attributes: kept });
  }

  fail(message: string, type?: string): void {
    this.failed = { message, ...(type === undefined ? {} : { type }) };
  }

  end(): void {
    this.ended = true;
  }

  carrier(): TraceCarrier {
    return { traceparent: `00-${'1'.repeat(32)}-${this.id}-01` };
  }
}

export class RecordingTracer implements Tracer {
  readonly enabled = true;
  readonly spans: RecordedSpan[] = [];
  #active: RecordedSpan | undefined;

  startSpan(name: string, options: SpanOptions = {}): TraceSpan {
    const parent = options.parent === undefined ? this.#active : options.parent instanceof RecordedSpan ? options.parent : options.parent;
    const span = new RecordedSpan(name, options, parent as RecordedSpan | TraceCarrier | undefined, this.spans.length + 1);
    this.spans.push(span);
    return span;
  }

  within<T>(span: TraceSpan, fn: () => T): T {
    const before = this.#active;
    this.#active = span instanceof RecordedSpan ? span : before;
    try {
      return fn();
    } finally {
      this.#active = before;
    }
  }

  /** The one span named `name` (throws when there is none or more than one). */
  span(name: string): RecordedSpan {
    const found = this.spans.filter((span) => span.name === name);
    if (found.length !== 1) throw new Error(`${found.length} spans named ${JSON.stringify(name)} (of ${this.spans.map((s) => s.name).join(', ')})`);
    return found[0] as RecordedSpan;
  }
}
