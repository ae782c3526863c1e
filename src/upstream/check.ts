/** @module `switchboard check`: connect to each upstream once and report what it offers, or why it failed. */

import type { NormalizedConfig, UpstreamSpec } from '../config/types.js';
import { redactUrlsIn } from '../protocol/redact-url.js';
import type { Transport, TransportPurpose } from './transport/transport.js';
import type { UpstreamReport } from '../ports/host-contracts.js';
import type { Logger } from '../core/log.js';
import { probeUpstream } from './probe.js';

export async function checkUpstreams(
  config: NormalizedConfig,
  options: { logger: Logger; openTransport: (spec: UpstreamSpec, purpose?: TransportPurpose) => Transport },
): Promise<UpstreamReport[]> {
  return Promise.all(
    config.upstreams.map(async (spec): Promise<UpstreamReport> => {
      const base = { name: spec.name, transport: spec.kind };
      try {
        const { toolNames: _names, ...report } = await probeUpstream(spec, () => options.openTransport(spec, 'probe'), options.logger);
        return { ...base, state: 'up', ...report };
      } catch (error) {
        return { ...base, state: 'down', error: redactUrlsIn(error instanceof Error ? error.message : String(error)) };
      }
    }),
  );
}
