/** @module Keeps a long-running gateway process serving when a stray promise rejects: the error is logged, not fatal. */

import type { Logger } from '../core/log.js';

let installed = false;

export function logUnhandledRejections(logger: Logger): void {
  if (installed) return;
  installed = true;
  process.on('unhandledRejection', (reason) => {
    const error = reason instanceof Error ? (reason.stack ?? reason.message) : String(reason);
    logger.log('error', 'unhandled promise rejection (the gateway keeps serving)', { error });
  });
}
