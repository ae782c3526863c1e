/** @module The `listen` key: where the gateway listens for hosts, parsed into host and port. */

import { z } from 'zod';

import { parseListenAddress } from '../listen.js';
import { custom } from './fields.js';

/** The address used when the file names none. */
export const DEFAULT_LISTEN = '127.0.0.1:3939';

export const listenSchema = z
  .string()
  .transform((text, ctx) => {
    try {
      return parseListenAddress(text);
    } catch (error) {
      custom(ctx, (error as Error).message);
      return z.NEVER;
    }
  })
  .meta({ description: 'Where the gateway listens for hosts: HOST:PORT, [IPv6]:PORT or :PORT (127.0.0.1). Port 0 picks a free port.' });
