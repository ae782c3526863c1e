/** @module incident-desk/tools/host-failure: isError tool results for a host that failed, refused or cannot receive a server-to-host request. */
import { type CallToolResult, ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/server';

/** Why a request to the host failed, in one sentence that names the tool. */
export function describeHostFailure(tool: string, method: string, error: unknown, timeoutMs: number): string {
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return `${tool}: no answer from the host within ${timeoutMs} ms`;
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.CapabilityNotSupported) {
    return `${tool}: the host cannot answer ${method} (${error.message})`;
  }
  if (error instanceof ProtocolError) {
    return `${tool}: the host refused ${method} (${error.code}: ${error.message})`;
  }
  return `${tool}: ${method} failed: ${error instanceof Error ? error.message : String(error)}`;
}

export function textResult(text: string, isError = false): CallToolResult {
  return { content: [{ type: 'text', text }], isError };
}

export function hostFailureResult(tool: string, method: string, error: unknown, timeoutMs: number): CallToolResult {
  return textResult(describeHostFailure(tool, method, error, timeoutMs), true);
}

/** A request that cannot be put to the host because it did not declare the capability (stateless mode: per request). */
export function missingCapabilityResult(tool: string, method: string, capability: string): CallToolResult {
  return textResult(`${tool}: the host cannot answer ${method} (the request's client capabilities declare no ${capability})`, true);
}
