/** @module Types of .dependency-cruiser.mjs, for the TypeScript that reads its layer list (tests, `npm run gen:layers`). */
import type { ICruiseOptions, IForbiddenRuleType, IConfiguration } from 'dependency-cruiser';

/** A named part of a layer; the rooms of one layer are siblings and do not import each other. */
export interface Room {
  name: string;
  /** Repository-relative globs: `src/x/*` (folder x with its testing/ and __fixtures__/), `src/x/**`, or a file pattern. */
  globs: string[];
  /** What the room holds, one line (it goes into design 001's layer table). */
  holds: string;
  /** May import hono, @hono/* and the SDK's server side. */
  edge?: boolean;
  /** May import @modelcontextprotocol/client. */
  sdkClient?: boolean;
  /** Imports no node: I/O module. */
  pure?: boolean;
}

/** One layer of the ordered list, top to bottom. */
export interface Layer {
  layer: string;
  rooms: Room[];
}

/** An import that points up today: from one file to the listed files, until the named step removes it. */
export interface Exception {
  from: string;
  to: string[];
  why: string;
  removedBy: string;
}

export const LAYERS: Layer[];
export const EXCEPTIONS: Exception[];
export const TEST_CODE: string[];
export const IO_MODULES: string[];
export const OPTIONS: ICruiseOptions;
export function globToRegex(glob: string): string;
export function roomRegex(room: Room): string;
export function rulesFor(layers: Layer[], exceptions: Exception[]): IForbiddenRuleType[];
declare const config: IConfiguration;
export default config;
