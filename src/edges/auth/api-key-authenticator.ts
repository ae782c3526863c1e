/** @module Hosts authenticated by a configured API key: the SHA-256 of `Bearer <key>` compared in constant time with every configured hash. */

import { createHash, timingSafeEqual } from 'node:crypto';

import { API_KEY_ISSUER } from '../../access/principal.js';
import type { Principal } from '../../access/principal.js';
import type { ApiKeyEntry } from '../../config/types.js';
import type { Logger } from '../../core/log.js';
import { readBearer } from './authorization-header.js';
import { credentialsRequired, invalidRequest, invalidTokenOutcome } from './host-auth-contract.js';
import type { ChallengeContext, HostAuthenticator } from './host-auth-contract.js';

/** The realm API-key challenges name (there is no metadata to point to). */
export const API_KEY_REALM = 'switchboard';

export function createApiKeyAuthenticator(keys: readonly ApiKeyEntry[], logger: Logger): HostAuthenticator {
  const context: ChallengeContext = { realm: API_KEY_REALM };
  const entries = keys.map((key) => {
    if (!/^[0-9a-f]{64}$/i.test(key.sha256)) throw new Error(`the API key of ${key.subject} is not a SHA-256 in hex`);
    const principal: Principal = {
      issuer: API_KEY_ISSUER,
      subject: key.subject,
      groups: [...key.groups],
      scopes: [...key.scopes],
      ...(key.name === undefined ? {} : { name: key.name }),
    };
    return { hash: Buffer.from(key.sha256, 'hex'), principal };
  });

  return {
    enabled: true,
    authenticate(authorization) {
      const credential = readBearer(authorization, 'nonBlank');
      if (credential.kind === 'absent' || credential.kind === 'otherScheme') return Promise.resolve(credentialsRequired(context));
      if (credential.kind === 'malformed') return Promise.resolve(invalidRequest(context, 'The Authorization header must be Bearer followed by one key'));
      const presented = createHash('sha256').update(credential.token, 'utf8').digest();
      // Every entry is compared, without stopping at a match, so the time taken says nothing about which key matched.
      let match: Principal | undefined;
      for (const entry of entries) {
        const equal = timingSafeEqual(presented, entry.hash);
        if (equal && match === undefined) match = entry.principal;
      }
      if (match === undefined) {
        logger.log('debug', 'host API key refused', { reason: 'unknown key' });
        return Promise.resolve(invalidTokenOutcome(context, 'The API key is not valid'));
      }
      return Promise.resolve({ ok: true, principal: match });
    },
    metadata: () => undefined,
  };
}
