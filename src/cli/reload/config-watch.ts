/** @module The opt-in watch of `serve --watch`: a change to the config file (an editor's save, a rename over it) asks for a reload once things settle. */

import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

import type { Logger } from '../../core/log.js';

/** How long the file must stay quiet before the reload: an editor's save is several writes. */
export const WATCH_SETTLE_MS = 300;

/**
 * Watches the folder of `file` (a save that renames a new file over it replaces the file a watch on it would follow)
 * and calls `changed` once the file has been quiet for `settleMs`. Returns the stop function.
 */
export function watchConfigFile(file: string, changed: () => void, options: { logger: Logger; settleMs?: number }): () => void {
  const path = resolve(file);
  const name = basename(path);
  const settleMs = options.settleMs ?? WATCH_SETTLE_MS;
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher;
  try {
    watcher = watch(dirname(path), { persistent: false }, (_event, changedName) => {
      // Some platforms do not name the file: then any change in the folder counts.
      if (changedName !== null && changedName.toString() !== name) return;
      clearTimeout(timer);
      timer = setTimeout(changed, settleMs);
    });
  } catch (error) {
    options.logger.log('error', 'cannot watch the config file; reload it with SIGHUP or `switchboard reload`', { file, error: error instanceof Error ? error.message : String(error) });
    return () => undefined;
  }
  watcher.on('error', (error) => options.logger.log('error', 'the watch of the config file failed; reload it with SIGHUP or `switchboard reload`', { file, error: error.message }));
  options.logger.log('info', 'watching the config file for changes', { file });
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
