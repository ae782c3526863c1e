/**
 * @module incident-desk/testing/vector-replay: replays a 2026-07-28 wire vector (the format of ../shared/vectors:
 * `steps` of `{direction, message}`) against a live desk, field for field. A string value written `<…>` is a
 * placeholder: in a server message it matches any value and remembers it under its key; in a host message it
 * is replaced by the value remembered under the same key (e.g. `requestState`, echoed byte for byte).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { WireObject } from './modern-wire.js';

export interface VectorStep {
  readonly direction: string;
  readonly transport?: string;
  readonly message: WireObject;
}

export interface WireVector {
  readonly about?: string;
  readonly protocolVersion?: string;
  readonly negotiatedProtocolVersion?: string;
  readonly steps: readonly VectorStep[];
}

export type Captured = Map<string, unknown>;

export function isPlaceholder(value: unknown): value is string {
  return typeof value === 'string' && value.length >= 2 && value.startsWith('<') && value.endsWith('>');
}

function isObject(value: unknown): value is WireObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Every difference between `expected` and `actual` (as JSON paths); placeholders match anything present and are captured. */
export function diffMessage(expected: unknown, actual: unknown, captured: Captured, path = '$', key = ''): string[] {
  if (isPlaceholder(expected)) {
    if (actual === undefined) return [`${path}: missing (expected ${expected})`];
    captured.set(key, actual);
    return [];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return [`${path}: expected an array of ${expected.length}`];
    return expected.flatMap((item, index) => diffMessage(item, actual[index], captured, `${path}[${index}]`, key));
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return [`${path}: expected an object`];
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    return [...keys].flatMap((name) => {
      if (!(name in expected)) return [`${path}.${name}: unexpected`];
      return diffMessage(expected[name], actual[name], captured, `${path}.${name}`, name);
    });
  }
  return Object.is(expected, actual) ? [] : [`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

/** The host message to send: placeholders replaced by what the server said under the same key. */
export function fillPlaceholders(message: unknown, captured: Captured, key = ''): unknown {
  if (isPlaceholder(message)) {
    if (!captured.has(key)) throw new Error(`no value remembered for "${key}" (placeholder ${message})`);
    return captured.get(key);
  }
  if (Array.isArray(message)) return message.map((item) => fillPlaceholders(item, captured, key));
  if (isObject(message)) return Object.fromEntries(Object.entries(message).map(([name, value]) => [name, fillPlaceholders(value, captured, name)]));
  return message;
}

/**
 * Sends each host step through `exchange` and compares the reply with the server step after it. Returns the
 * differences (empty when the desk spoke the vector exactly).
 */
export async function replayVector(vector: WireVector, exchange: (message: WireObject) => Promise<WireObject>): Promise<string[]> {
  const captured: Captured = new Map();
  const differences: string[] = [];
  for (let index = 0; index < vector.steps.length; index += 2) {
    const hostStep = vector.steps[index];
    const serverStep = vector.steps[index + 1];
    if (hostStep?.direction !== 'host->server' || serverStep?.direction !== 'server->host') {
      return [`step ${index + 1}: expected a host->server step answered by a server->host step`];
    }
    const reply = await exchange(fillPlaceholders(hostStep.message, captured) as WireObject);
    differences.push(...diffMessage(serverStep.message, reply, captured).map((difference) => `step ${index + 2}: ${difference}`));
  }
  return differences;
}

export function readVector(path: string): WireVector {
  return JSON.parse(readFileSync(path, 'utf8')) as WireVector;
}

/** The incident desk's 2026-07-28 vectors in `dir` (files named incident-desk*.json at that revision); [] when the folder is absent. */
export function findModernDeskVectors(dir: string): { path: string; vector: WireVector }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.startsWith('incident-desk') && name.endsWith('.json'))
    .map((name) => ({ path: join(dir, name), vector: readVector(join(dir, name)) }))
    .filter(({ vector }) => (vector.protocolVersion ?? vector.negotiatedProtocolVersion) === '2026-07-28');
}
