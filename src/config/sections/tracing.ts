/** @module The `tracing` section: OpenTelemetry traces over OTLP/HTTP, off unless this section or the standard OTEL_* variables turn them on. */

import { z } from 'zod';

import { isUrl } from './fields.js';
import { HEADER_NAME_PATTERN } from './upstreams.js';

export const tracingSchema = z
  .strictObject({
    enabled: z
      .boolean()
      .optional()
      .meta({ description: 'Export traces. Absent: the OTEL_* variables decide (OTEL_TRACES_EXPORTER=otlp or an OTLP endpoint turns them on, OTEL_SDK_DISABLED=true off); true or false here wins over them.' }),
    endpoint: z
      .string()
      .refine((text) => isUrl(text, false), { error: 'must be an http:// or https:// URL' })
      .optional()
      .meta({ description: 'The OTLP/HTTP URL spans are POSTed to (JSON), e.g. http://127.0.0.1:4318/v1/traces. Default: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces, else http://localhost:4318/v1/traces. ${VAR} is expanded.' }),
    serviceName: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .meta({ description: 'The service.name resource attribute. Default: OTEL_SERVICE_NAME, else switchboard.' }),
    sampleRatio: z
      .number()
      .min(0, { error: 'must be from 0 to 1' })
      .max(1, { error: 'must be from 0 to 1' })
      .optional()
      .meta({ description: 'Share of new traces kept, 0 to 1; a trace a host started keeps its host\'s decision (parent-based). Default: OTEL_TRACES_SAMPLER(_ARG), else 1.' }),
    headers: z
      .record(
        z.string().regex(new RegExp(HEADER_NAME_PATTERN), { error: 'is not a valid HTTP header name' }),
        z.string().refine((value) => !/[\r\n\0]/.test(value), { error: 'must not contain line breaks or NUL' }),
      )
      .optional()
      .meta({ description: 'HTTP headers sent with every export (an API key of the collector). Default: OTEL_EXPORTER_OTLP_TRACES_HEADERS or OTEL_EXPORTER_OTLP_HEADERS. ${VAR} is expanded.' }),
  })
  .meta({ description: 'OpenTelemetry traces of each host request, upstream request, question, composite step and store write, exported over OTLP/HTTP.' });

export type TracingSection = z.output<typeof tracingSchema>;
