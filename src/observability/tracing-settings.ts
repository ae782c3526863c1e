/** @module Whether and how traces are exported: the config's `tracing` section over the standard OTEL_* variables (the file wins). */

import type { TracingSection } from '../config/sections/tracing.js';

/** What the exporter needs; undefined from `tracingSettings` means tracing is off. */
export interface TracingSettings {
  /** The full OTLP/HTTP traces URL. */
  endpoint: string;
  serviceName: string;
  /** Share of new traces kept (parent-based: a sampled parent's decision is kept). */
  sampleRatio: number;
  headers: Record<string, string>;
}

export type Environment = Readonly<Record<string, string | undefined>>;

const DEFAULT_ENDPOINT = 'http://localhost:4318/v1/traces';
const DEFAULT_SERVICE = 'switchboard';

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A variable's value, trimmed; empty counts as unset (as the OpenTelemetry spec says). */
function variable(env: Environment, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function endpointFrom(env: Environment, problem: (text: string) => void): string | undefined {
  const traces = variable(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  if (traces !== undefined) {
    if (isHttpUrl(traces)) return traces;
    problem('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is not an http(s) URL: ignored');
  }
  const base = variable(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  if (base === undefined) return undefined;
  if (isHttpUrl(base)) return `${base.replace(/\/+$/, '')}/v1/traces`;
  problem('OTEL_EXPORTER_OTLP_ENDPOINT is not an http(s) URL: ignored');
  return undefined;
}

const RATIO_SAMPLERS = new Set(['traceidratio', 'parentbased_traceidratio']);
const FIXED_SAMPLERS: Record<string, number> = { always_on: 1, parentbased_always_on: 1, always_off: 0, parentbased_always_off: 0 };

function ratioFrom(env: Environment, problem: (text: string) => void): number | undefined {
  const sampler = variable(env, 'OTEL_TRACES_SAMPLER')?.toLowerCase();
  if (sampler === undefined) return undefined;
  const fixed = FIXED_SAMPLERS[sampler];
  if (fixed !== undefined) return fixed;
  if (!RATIO_SAMPLERS.has(sampler)) {
    problem(`OTEL_TRACES_SAMPLER ${sampler} is not supported (always_on, always_off, traceidratio and their parentbased_ forms are): sampling every trace`);
    return undefined;
  }
  const arg = variable(env, 'OTEL_TRACES_SAMPLER_ARG');
  if (arg === undefined) return 1;
  const ratio = Number(arg);
  if (Number.isFinite(ratio) && ratio >= 0 && ratio <= 1) return ratio;
  problem(`OTEL_TRACES_SAMPLER_ARG ${JSON.stringify(arg)} is not a number from 0 to 1: sampling every trace`);
  return 1;
}

/** `key=value` pairs separated by commas, values percent-decoded (the OTLP exporter spec's format). */
function headersFrom(env: Environment, problem: (text: string) => void): Record<string, string> | undefined {
  const name = variable(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS') !== undefined ? 'OTEL_EXPORTER_OTLP_TRACES_HEADERS' : 'OTEL_EXPORTER_OTLP_HEADERS';
  const text = variable(env, name);
  if (text === undefined) return undefined;
  const headers: Record<string, string> = {};
  for (const entry of text.split(',')) {
    const at = entry.indexOf('=');
    const key = at < 0 ? '' : entry.slice(0, at).trim();
    if (key === '' || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)) {
      problem(`${name} has an entry that is not key=value: ignored`);
      continue;
    }
    let value = entry.slice(at + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // Not percent-encoded after all: taken as written.
    }
    if (!/[\r\n\0]/.test(value)) headers[key] = value;
  }
  return headers;
}

/** Whether the variables alone turn tracing on (undefined: they say nothing). */
function enabledByEnv(env: Environment): boolean | undefined {
  if (variable(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return false;
  const exporter = variable(env, 'OTEL_TRACES_EXPORTER')?.toLowerCase();
  if (exporter === 'none') return false;
  if (exporter !== undefined && exporter.split(',').map((part) => part.trim()).includes('otlp')) return true;
  return variable(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') !== undefined || variable(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') !== undefined ? true : undefined;
}

/**
 * The settings traces are exported with, or undefined when tracing is off. `enabled` in the file decides when set;
 * else the variables (an `endpoint` in the file counts as turning it on, unless a variable turns it off). Each other
 * setting: the file's, else the variable's, else the default. A bad variable is reported to `problem` and ignored.
 */
export function tracingSettings(section: TracingSection, env: Environment, problem: (text: string) => void = () => undefined): TracingSettings | undefined {
  const byEnv = enabledByEnv(env);
  const enabled = section.enabled ?? (byEnv ?? section.endpoint !== undefined);
  if (!enabled) return undefined;
  const endpoint = section.endpoint ?? endpointFrom(env, problem) ?? DEFAULT_ENDPOINT;
  const serviceName = section.serviceName ?? variable(env, 'OTEL_SERVICE_NAME') ?? DEFAULT_SERVICE;
  const sampleRatio = section.sampleRatio ?? ratioFrom(env, problem) ?? 1;
  const headers = section.headers ?? headersFrom(env, problem) ?? {};
  return { endpoint, serviceName, sampleRatio, headers: { ...headers } };
}
