/** @module The 2026-07-28 protocol errors (-32020, -32021, -32022) as JSON-RPC error objects, and the HTTP status each one takes. */

import { RpcCode } from './errors.js';
import type { JsonObject, JsonRpcErrorObject } from './jsonrpc.js';

/** -32020: a required header is missing or malformed, or differs from the body. `header` names it. */
export function headerMismatchError(header: string, message: string): JsonRpcErrorObject {
  return { code: RpcCode.HeaderMismatch, message, data: { header } };
}

/** -32021: the request needs `requiredCapabilities` (a ClientCapabilities object) and did not declare them. */
export function missingCapabilityError(requiredCapabilities: JsonObject, message = 'The request needs a client capability it did not declare'): JsonRpcErrorObject {
  return { code: RpcCode.MissingRequiredClientCapability, message, data: { requiredCapabilities } };
}

/** -32022: `requested` is not served; the client picks one of `supported` and retries. */
export function unsupportedVersionError(requested: string, supported: readonly string[]): JsonRpcErrorObject {
  return {
    code: RpcCode.UnsupportedProtocolVersion,
    message: `Unsupported protocol version: ${requested}`,
    data: { supported: [...supported], requested },
  };
}

/** -32602 for a modern request whose params (the `_meta` envelope included) are malformed; `field` names the culprit. */
export function invalidParamsError(field: string, message: string): JsonRpcErrorObject {
  return { code: RpcCode.InvalidParams, message, data: { field } };
}

/**
 * The HTTP status a 2026-07-28 server answers a JSON-RPC error with: 400 for the three modern codes,
 * invalid params and invalid requests; 404 for an unknown method (the JSON-RPC body is what tells it
 * from a legacy 404); 400 for a body that is not JSON; otherwise 200 (an error produced by handling
 * a well-formed request, as an upstream's own tool error is).
 */
export function modernHttpStatus(code: number): number {
  switch (code) {
    case RpcCode.HeaderMismatch:
    case RpcCode.MissingRequiredClientCapability:
    case RpcCode.UnsupportedProtocolVersion:
    case RpcCode.InvalidParams:
    case RpcCode.InvalidRequest:
    case RpcCode.ParseError:
      return 400;
    case RpcCode.MethodNotFound:
      return 404;
    default:
      return 200;
  }
}
