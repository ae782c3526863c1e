/** @module Starting an upstream's transport within the upstream's connect timeout. */

import { GatewayError } from '../protocol/gateway-errors.js';

/** Resolves as `start` does, or rejects with GW_ERR_UPSTREAM_TIMEOUT (`message`) once `ms` have passed first. */
export async function withinConnectTimeout<T>(start: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new GatewayError('GW_ERR_UPSTREAM_TIMEOUT', message)), ms);
  });
  try {
    return await Promise.race([start, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
