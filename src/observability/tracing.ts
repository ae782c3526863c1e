/**
 * @module Traces on OpenTelemetry: the SDK (NodeSDK, OTLP/HTTP JSON exporter, parent-based ratio sampler) loaded only when
 * tracing is on, behind the core's tracing port; `startTracing` installs it and returns what flushes and stops it.
 */

import type * as OtelApi from '@opentelemetry/api';
import type { Attributes, Context, Link, Span, SpanKind as OtelSpanKind, Tracer as OtelApiTracer } from '@opentelemetry/api';

import type { Logger } from '../core/log.js';
import type { SpanAttributes, SpanOptions, TraceCarrier, TraceSpan, Tracer } from '../core/tracing/trace-port.js';
import { installTracer } from '../core/tracing/trace-port.js';
import type { TracingSection } from '../config/sections/tracing.js';
import type { Environment, TracingSettings } from './tracing-settings.js';
import { tracingSettings } from './tracing-settings.js';

type Api = typeof OtelApi;

/** What `serve` and `stdio` keep of tracing: flushes the spans still queued and stops the exporter (a no-op when off). */
export interface TracingHandle {
  readonly settings: TracingSettings | undefined;
  shutdown(): Promise<void>;
}

const OFF: TracingHandle = { settings: undefined, shutdown: async () => undefined };

/** Longest an export may take at shutdown before the spans are given up. */
const EXPORT_TIMEOUT_MS = 5_000;

function kept(attributes: SpanAttributes | undefined): Attributes {
  const out: Attributes = {};
  if (attributes) for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out[key] = value;
  return out;
}

class OtelSpan implements TraceSpan {
  readonly recording: boolean;
  readonly span: Span;
  #api: Api;

  constructor(span: Span, api: Api) {
    this.span = span;
    this.#api = api;
    this.recording = span.isRecording();
  }

  setAttributes(attributes: SpanAttributes): void {
    this.span.setAttributes(kept(attributes));
  }

  addEvent(name: string, attributes?: SpanAttributes): void {
    this.span.addEvent(name, kept(attributes));
  }

  fail(message: string, type?: string): void {
    this.span.setStatus({ code: this.#api.SpanStatusCode.ERROR, message });
    if (type !== undefined) this.span.setAttribute('error.type', type);
  }

  end(): void {
    this.span.end();
  }

  carrier(): TraceCarrier {
    const carrier: Record<string, string> = {};
    this.#api.propagation.inject(this.#api.trace.setSpan(this.#api.ROOT_CONTEXT, this.span), carrier);
    return carrier;
  }
}

const KINDS = { server: 1, client: 2, internal: 0 } as const satisfies Record<NonNullable<SpanOptions['kind']>, OtelSpanKind>;

class OtelTracer implements Tracer {
  readonly enabled = true;
  #api: Api;
  #tracer: OtelApiTracer;

  constructor(api: Api, tracer: OtelApiTracer) {
    this.#api = api;
    this.#tracer = tracer;
  }

  startSpan(name: string, options: SpanOptions = {}): TraceSpan {
    const api = this.#api;
    const links: Link[] = (options.links ?? []).flatMap((link) => (link instanceof OtelSpan ? [{ context: link.span.spanContext() }] : []));
    const span = this.#tracer.startSpan(name, { kind: KINDS[options.kind ?? 'internal'], attributes: kept(options.attributes), links }, this.#parentContext(options.parent));
    return new OtelSpan(span, api);
  }

  #parentContext(parent: SpanOptions['parent']): Context {
    const api = this.#api;
    if (parent === undefined) return api.context.active();
    if (parent instanceof OtelSpan) return api.trace.setSpan(api.ROOT_CONTEXT, parent.span);
    if ('recording' in parent) return api.context.active();
    return api.propagation.extract(api.ROOT_CONTEXT, parent);
  }

  within<T>(span: TraceSpan, fn: () => T): T {
    if (!(span instanceof OtelSpan)) return fn();
    return this.#api.context.with(this.#api.trace.setSpan(this.#api.context.active(), span.span), fn);
  }
}

/**
 * Starts exporting traces when the config or the OTEL_* variables say so (see tracing-settings), installing the tracer
 * every layer reaches through the port. Off: nothing of OpenTelemetry is loaded. The SDK failing to load is logged,
 * and the gateway runs on without traces.
 */
export async function startTracing(section: TracingSection, env: Environment, logger: Logger, version: string): Promise<TracingHandle> {
  const settings = tracingSettings(section, env, (problem) => logger.log('warn', `tracing: ${problem}`));
  if (settings === undefined) return OFF;
  try {
    const [api, sdk, exporter, resources] = await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/sdk-node'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
    ]);
    api.diag.setLogger(diagLogger(logger), api.DiagLogLevel.WARN);
    const { tracing } = sdk;
    const node = new sdk.NodeSDK({
      resource: resources.resourceFromAttributes({ 'service.name': settings.serviceName, 'service.version': version }),
      autoDetectResources: false,
      sampler: new tracing.ParentBasedSampler({ root: new tracing.TraceIdRatioBasedSampler(settings.sampleRatio) }),
      spanProcessors: [new tracing.BatchSpanProcessor(new exporter.OTLPTraceExporter({ url: settings.endpoint, headers: settings.headers, timeoutMillis: EXPORT_TIMEOUT_MS }))],
      instrumentations: [],
    });
    node.start();
    const uninstall = installTracer(new OtelTracer(api, api.trace.getTracer('switchboard', version)));
    logger.log('info', 'tracing: exporting spans over OTLP/HTTP', { endpoint: settings.endpoint, service: settings.serviceName, sampleRatio: settings.sampleRatio });
    return {
      settings,
      shutdown: async () => {
        uninstall();
        await node.shutdown().catch((error: unknown) => logger.log('warn', 'tracing: the last spans could not be exported', { error: String(error) }));
      },
    };
  } catch (error) {
    logger.log('error', 'tracing: OpenTelemetry could not be started; running without traces', { error: String(error) });
    return OFF;
  }
}

/** OpenTelemetry's own complaints (an export that failed, a collector that refused) in the gateway's log. */
function diagLogger(logger: Logger) {
  const at = (level: 'warn' | 'error' | 'debug') => (message: string, ...args: unknown[]) => logger.log(level, `opentelemetry: ${message}`, args.length > 0 ? { detail: args.map(String).join(' ') } : undefined);
  return { error: at('error'), warn: at('warn'), info: at('debug'), debug: at('debug'), verbose: at('debug') };
}
