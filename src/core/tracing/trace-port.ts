/** @module The tracing port: spans as the core sees them, a no-op default that costs nothing, and the one tracer of the process. */

/** Server: a host's request to the gateway; client: the gateway's request to an upstream; internal: what happens inside. */
export type SpanKind = 'server' | 'client' | 'internal';

/** Attribute values as OpenTelemetry takes them; an undefined value is left out. */
export type SpanAttributes = Readonly<Record<string, string | number | boolean | undefined>>;

/** W3C trace context as it travels: HTTP headers or the `_meta` keys of the same names. */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
  baggage?: string;
}

export interface TraceSpan {
  /** False for the no-op span: nothing it is told is kept. */
  readonly recording: boolean;
  setAttributes(attributes: SpanAttributes): void;
  addEvent(name: string, attributes?: SpanAttributes): void;
  /** Marks the span failed (status error) with `message`, `error.type` set to `type` when given. */
  fail(message: string, type?: string): void;
  end(): void;
  /** This span's context to send on (`traceparent`, `tracestate`), empty when it is not recording. */
  carrier(): TraceCarrier;
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: SpanAttributes;
  /**
   * The parent: a span of ours, or the context a caller sent (its `traceparent`). Absent: the span active where it
   * is started (see `within`), else none (a new trace).
   */
  parent?: TraceSpan | TraceCarrier;
  /** Spans this one relates to without being their child (a question answered in a later request). */
  links?: readonly TraceSpan[];
}

export interface Tracer {
  /** False for the no-op tracer: callers may skip building attributes. */
  readonly enabled: boolean;
  startSpan(name: string, options?: SpanOptions): TraceSpan;
  /** Runs `fn` with `span` active: spans started inside it (and in what it awaits) without a parent become its children. */
  within<T>(span: TraceSpan, fn: () => T): T;
}

const NO_CARRIER: TraceCarrier = Object.freeze({});

export const NOOP_SPAN: TraceSpan = Object.freeze({
  recording: false,
  setAttributes() {},
  addEvent() {},
  fail() {},
  end() {},
  carrier: () => NO_CARRIER,
});

export const NOOP_TRACER: Tracer = Object.freeze({
  enabled: false,
  startSpan: () => NOOP_SPAN,
  within: <T>(_span: TraceSpan, fn: () => T): T => fn(),
});

let current: Tracer = NOOP_TRACER;

/** The tracer of this process: the no-op one unless `serve` or `stdio` installed another (tracing enabled). */
export function tracer(): Tracer {
  return current;
}

/**
 * Makes `installed` the process's tracer and returns what uninstalls it. One per process, like OpenTelemetry's own
 * global provider: a second install over a live one is a programming error.
 */
export function installTracer(installed: Tracer): () => void {
  if (current !== NOOP_TRACER) throw new Error('a tracer is already installed');
  current = installed;
  return () => {
    if (current === installed) current = NOOP_TRACER;
  };
}
