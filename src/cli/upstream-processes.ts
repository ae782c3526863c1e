/** @module At start: stops the stdio upstreams a gateway that died left running (and logs each), then records this gateway's own beside the store. */

import type { NormalizedConfig } from '../config/types.js';
import type { Logger } from '../core/log.js';
import { reapOrphanedUpstreams } from '../upstream/transport/processes/orphan-reaper.js';
import { ProcessLedger } from '../upstream/transport/processes/process-ledger.js';
import { dataFolder } from './data-folder.js';

/** The ledger to hand to `openUpstreamTransport`; close it after the gateway has closed its upstreams. */
export async function trackUpstreamProcesses(config: NormalizedConfig, logger: Logger): Promise<ProcessLedger> {
  const folder = dataFolder(config);
  const stopped = await reapOrphanedUpstreams(folder, {
    onBadRecord: (file, error) => logger.log('warn', 'a record of upstream processes could not be read or removed; left as it is', { file, error: String(error) }),
  });
  for (const orphan of stopped) {
    logger.log('warn', 'stopped an orphaned upstream left running by a gateway that died', { upstream: orphan.name, pid: orphan.pid, gatewayPid: orphan.gatewayPid, signal: orphan.signal });
  }
  const ledger = new ProcessLedger(folder, {
    onWriteError: (error) => logger.log('warn', 'could not record a stdio upstream process (a SIGKILL of this gateway would leave it running)', { file: ledger.file, error: String(error) }),
  });
  return ledger;
}
