/** @module The signature of a delivery: `sha256=<hex HMAC-SHA256 of the exact body with the target's secret>`, sent as X-Switchboard-Signature. */

import { createHmac } from 'node:crypto';

export function signatureOf(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}
