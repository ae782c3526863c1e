/** @module At start: refuses a composite whose step names a tool its upstream does not list; warns of those it cannot check yet. */

import type { GatewayHandle } from '../ports/host-contracts.js';
import type { Logger } from '../core/log.js';
import { CliError } from './cli-io.js';

/** Throws (nothing starts) when a composite calls a tool an up upstream does not have; logs the steps it could not check. */
export function checkComposites(gateway: GatewayHandle, logger: Logger): void {
  const { missing, unchecked } = gateway.compositeProblems();
  for (const line of unchecked) logger.log('warn', line);
  if (missing.length > 0) throw new CliError(`composite tools refer to tools that do not exist:\n  ${missing.join('\n  ')}`);
}
