/** @module A live-configuration double for the operator routes: a version, and reloads that apply or are refused as told. */

import type { Principal } from '../../../access/principal.js';
import type { ConfigInfo, ReloadAnswer } from '../config-schemas.js';
import type { ConfigControl } from '../operator-routes.js';

export class FakeConfigControl implements ConfigControl {
  current: ConfigInfo = { version: 'sha256:000000000001', loadedAt: '2026-12-07T08:00:00.000Z', generation: 1, file: 'switchboard.yaml' };
  /** Set: the next reloads are refused with this error. */
  refuse: string | undefined;
  /** Who asked for each reload. */
  readonly askedBy: Principal[] = [];

  info(): ConfigInfo {
    return this.current;
  }

  async reload(operator: Principal): Promise<ReloadAnswer> {
    this.askedBy.push(operator);
    if (this.refuse !== undefined) return { ok: false, trigger: 'api', config: this.current, error: this.refuse };
    this.current = { ...this.current, version: 'sha256:000000000002', generation: this.current.generation + 1 };
    return { ok: true, trigger: 'api', changed: true, config: this.current, upstreams: { added: ['two'], removed: [], changed: [] }, needsRestart: [] };
  }
}
