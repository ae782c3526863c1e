/**
 * @module The built-in consent rule: questions that belong to a person, not to a host-side agent: URL mode
 * (a person must open the page), secrets (password-like fields), and a lone yes/no approval.
 */

import type { JsonObject } from '../protocol/jsonrpc.js';
import { isObject } from '../protocol/jsonrpc.js';
import { secretPropertyKind } from '../protocol/secret-fields.js';

const SECRET_NAME = /pass(word|phrase)?|secret|token|api[-_]?key|private[-_]?key|\bpin\b|^pin$|otp|one[-_]?time/i;
const APPROVAL_NAME = /confirm|approv|consent|allow|authori[sz]e|accept|agree/i;

/** Why a question is a consent question, or undefined when an agent may answer it. */
export function consentReason(method: string, params: JsonObject): string | undefined {
  if (method !== 'elicitation/create') return undefined;
  if (params.mode === 'url') return 'URL-mode elicitation: a person must open the page';
  const schema = isObject(params.requestedSchema) ? params.requestedSchema : undefined;
  const properties = schema && isObject(schema.properties) ? schema.properties : {};
  const entries: [string, JsonObject][] = [];
  for (const [name, property] of Object.entries(properties)) if (isObject(property)) entries.push([name, property]);
  for (const [name, property] of entries) {
    const secret = secretPropertyKind(property);
    if (secret !== undefined) return `field '${name}' is a secret (${secret})`;
    if (property.type === 'string' && SECRET_NAME.test(name)) return `field '${name}' looks like a secret`;
  }
  const [only] = entries;
  if (entries.length === 1 && only && only[1].type === 'boolean' && APPROVAL_NAME.test(only[0])) {
    return `a lone yes/no approval ('${only[0]}')`;
  }
  return undefined;
}
