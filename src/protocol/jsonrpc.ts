/** @module JSON-RPC 2.0 message types and a strict, allocation-light classifier for inbound messages. */

export type JsonRpcId = string | number;
export type JsonObject = Record<string, unknown>;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: JsonObject;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: JsonObject;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id: JsonRpcId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** Outcome of classifying an unknown value as a JSON-RPC message. */
export type Classified =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponse }
  | { kind: 'invalid'; reason: string; id: JsonRpcId | null };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
}

/** Classifies one parsed JSON value; never throws. */
export function classifyMessage(value: unknown): Classified {
  if (!isObject(value)) return { kind: 'invalid', reason: 'a JSON-RPC message must be an object', id: null };
  const id = isId(value.id) ? value.id : null;
  if (value.jsonrpc !== '2.0') return { kind: 'invalid', reason: 'jsonrpc must be "2.0"', id };
  if ('params' in value && value.params !== undefined && !isObject(value.params)) {
    return { kind: 'invalid', reason: 'params must be an object', id };
  }
  if (typeof value.method === 'string') {
    if (value.method.length === 0) return { kind: 'invalid', reason: 'method must not be empty', id };
    if (!('id' in value)) return { kind: 'notification', message: value as unknown as JsonRpcNotification };
    if (!isId(value.id)) return { kind: 'invalid', reason: 'id must be a string or an integer', id: null };
    return { kind: 'request', message: value as unknown as JsonRpcRequest };
  }
  if ('method' in value) return { kind: 'invalid', reason: 'method must be a string', id };
  if ('result' in value) {
    if (!isId(value.id)) return { kind: 'invalid', reason: 'a response needs a string or integer id', id: null };
    if (!isObject(value.result)) return { kind: 'invalid', reason: 'result must be an object', id };
    return { kind: 'response', message: value as unknown as JsonRpcResultResponse };
  }
  if ('error' in value) {
    const error = value.error;
    if (!isObject(error) || typeof error.code !== 'number' || typeof error.message !== 'string') {
      return { kind: 'invalid', reason: 'error must have a numeric code and a message', id };
    }
    if (value.id !== null && !isId(value.id)) return { kind: 'invalid', reason: 'bad id on error response', id: null };
    return { kind: 'response', message: value as unknown as JsonRpcErrorResponse };
  }
  return { kind: 'invalid', reason: 'not a request, notification or response', id };
}

export function isErrorResponse(message: JsonRpcResponse): message is JsonRpcErrorResponse {
  return 'error' in message;
}

export function resultResponse(id: JsonRpcId, result: JsonObject): JsonRpcResultResponse {
  return { jsonrpc: '2.0', id, result };
}

export function errorResponse(id: JsonRpcId | null, error: JsonRpcErrorObject): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', id, error };
}

export function notification(method: string, params?: JsonObject): JsonRpcNotification {
  return params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
}
