/** @module e2e/harness/otlp-receiver: an OTLP/HTTP trace receiver on loopback that keeps the spans POSTed to /v1/traces (JSON, gzip or not). */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One received span, its attributes and events' attributes flattened to plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  status: { code?: number; message?: string };
  service: unknown;
}

export interface OtlpReceiver {
  /** The traces URL to point an exporter at. */
  readonly url: string;
  readonly spans: ReceivedSpan[];
  /** Bodies that were not OTLP JSON (a test fails on them). */
  readonly rejected: string[];
  close(): Promise<void>;
}

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type KeyValue = { key: string; value: AnyValue };

function valueOf(value: AnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.boolValue !== undefined) return value.boolValue;
  return value.doubleValue;
}

function flat(attributes: KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((attributes ?? []).map((kv) => [kv.key, valueOf(kv.value)]));
}

interface ExportBody {
  resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: KeyValue[]; events?: { name: string; attributes?: KeyValue[] }[]; status?: { code?: number; message?: string } }[] }[] }[];
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const rejected: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let raw = Buffer.concat(chunks);
      try {
        if (req.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw);
        if (req.url !== '/v1/traces' || !String(req.headers['content-type']).includes('application/json')) throw new Error(`${req.method} ${req.url} ${req.headers['content-type']}`);
        const body = JSON.parse(raw.toString('utf8')) as ExportBody;
        for (const resource of body.resourceSpans ?? []) {
          const service = flat(resource.resource?.attributes)['service.name'];
          for (const scope of resource.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              spans.push({
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId === undefined || span.parentSpanId === '' ? undefined : span.parentSpanId,
                name: span.name,
                kind: span.kind,
                attributes: flat(span.attributes),
                events: (span.events ?? []).map((event) => ({ name: event.name, attributes: flat(event.attributes) })),
                status: span.status ?? {},
                service,
              });
            }
          }
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch (error) {
        rejected.push(String(error));
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    spans,
    rejected,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
