/**
 * @module Live configuration (design 016): reads the config file again on SIGHUP, `switchboard reload` (the operator
 * API) or a change of the file (opt-in watch), refuses a config that does not validate whole, and otherwise applies
 * it: one reload at a time, the running config kept on any failure.
 */

import { loadConfig } from '../../config/load.js';
import { configVersion } from '../../config/settings-text.js';
import type { NormalizedConfig } from '../../config/types.js';
import type { Logger } from '../../core/log.js';
import type { Clock } from '../../core/clock.js';
import { systemClock } from '../../core/clock.js';
import type { UpstreamChanges } from '../../upstream/pool.js';
import { appliedConfig, restartOnlyChanges } from './restart-only.js';

/** What triggered a reload (logged, and in the answer). */
export type ReloadTrigger = 'signal' | 'api' | 'watch';

/** The config in force: its version (a digest of its settings), when it was loaded, how many loads so far. */
export interface ConfigVersionInfo {
  version: string;
  loadedAt: string;
  /** 1 at start, one more for each reload that applied. */
  generation: number;
  /** The file, as given to `serve --config`. */
  file: string;
}

export type ReloadOutcome =
  | {
      ok: true;
      trigger: ReloadTrigger;
      /** False when the file says what the running config says: nothing was done. */
      changed: boolean;
      config: ConfigVersionInfo;
      upstreams: UpstreamChanges;
      /** Settings the file changes that only a restart applies (kept as they run now). */
      needsRestart: string[];
    }
  | { ok: false; trigger: ReloadTrigger; config: ConfigVersionInfo; error: string };

export interface ConfigReloaderOptions {
  /** The config file, as `serve` was given it. */
  file: string;
  /** The config `serve` started with. */
  running: NormalizedConfig;
  /** Applies a validated config to the running gateway. */
  apply(next: NormalizedConfig): Promise<UpstreamChanges>;
  logger: Logger;
  clock?: Clock;
  /** Reads and validates the file (default: loadConfig, the same check as at start). */
  load?: (file: string) => Promise<NormalizedConfig>;
}

const NO_CHANGES: UpstreamChanges = { added: [], removed: [], changed: [] };

export class ConfigReloader {
  #options: ConfigReloaderOptions;
  #running: NormalizedConfig;
  #info: ConfigVersionInfo;
  #clock: Clock;
  /** The reload running now; the next one waits for it. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: ConfigReloaderOptions) {
    this.#options = options;
    this.#running = options.running;
    this.#clock = options.clock ?? systemClock;
    this.#info = { version: configVersion(options.running), loadedAt: this.#clock.date().toISOString(), generation: 1, file: options.file };
  }

  /** The config in force. */
  get info(): ConfigVersionInfo {
    return this.#info;
  }

  /** The config in force, as normalized (restart-only sections as they run). */
  get running(): NormalizedConfig {
    return this.#running;
  }

  /** Reads the file again and applies it, after any reload already running. Never throws: a failure is the outcome. */
  reload(trigger: ReloadTrigger): Promise<ReloadOutcome> {
    const run = this.#queue.then(() => this.#reload(trigger));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #reload(trigger: ReloadTrigger): Promise<ReloadOutcome> {
    const { logger } = this.#options;
    let next: NormalizedConfig;
    try {
      next = await (this.#options.load ?? loadConfig)(this.#options.file);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      logger.log('error', 'config reload refused: the file does not validate; the running config stays', { trigger, error: message, version: this.#info.version });
      return { ok: false, trigger, config: this.#info, error: message };
    }
    const needsRestart = restartOnlyChanges(this.#running, next);
    if (needsRestart.length > 0) logger.log('warn', 'config reload: these settings take effect at the next restart', { settings: needsRestart.join(', ') });
    const applied = appliedConfig(this.#running, next);
    const version = configVersion(applied);
    if (version === this.#info.version) {
      logger.log('info', 'config reload: nothing changed', { trigger, version });
      return { ok: true, trigger, changed: false, config: this.#info, upstreams: NO_CHANGES, needsRestart };
    }
    let upstreams: UpstreamChanges;
    try {
      upstreams = await this.#options.apply(applied);
    } catch (error) {
      const message = `the config validated but could not be applied: ${error instanceof Error ? error.message : String(error)}`;
      logger.log('error', `config reload failed: ${message}`, { trigger });
      return { ok: false, trigger, config: this.#info, error: message };
    }
    this.#running = applied;
    this.#info = { version, loadedAt: this.#clock.date().toISOString(), generation: this.#info.generation + 1, file: this.#options.file };
    logger.log('info', 'config reloaded', { trigger, version, generation: this.#info.generation, added: upstreams.added.join(', '), removed: upstreams.removed.join(', '), changed: upstreams.changed.join(', ') });
    return { ok: true, trigger, changed: true, config: this.#info, upstreams, needsRestart };
  }
}
