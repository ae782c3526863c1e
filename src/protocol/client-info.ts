/** @module What the gateway passes on of a host's `clientInfo`: the schema's fields (name, version, title, websiteUrl, icons), each bounded. */

import type { JsonObject } from './jsonrpc.js';
import { isObject } from './jsonrpc.js';

/** Longest name, version or title kept, in characters; longer ones are cut. */
export const MAX_CLIENT_INFO_TEXT = 256;
/** Longest URL kept (websiteUrl, an icon's src): an icon may be a small `data:` URI. */
export const MAX_CLIENT_INFO_URL = 16 * 1024;
/** Most icons kept, and most sizes per icon. */
export const MAX_CLIENT_INFO_ICONS = 8;

const FALLBACK_NAME = 'unknown-host';
const FALLBACK_VERSION = '0';

/** A string cut to `max` characters (a name, a title: the start still says what it is). */
const text = (value: unknown, max: number): string | undefined => (typeof value === 'string' ? value.slice(0, max) : undefined);
/** A string kept whole or not at all (a URL cut short points elsewhere). */
const whole = (value: unknown, max: number): string | undefined => (typeof value === 'string' && value.length <= max ? value : undefined);

function boundedIcon(value: unknown): JsonObject | undefined {
  if (!isObject(value)) return undefined;
  const src = whole(value.src, MAX_CLIENT_INFO_URL);
  if (src === undefined) return undefined;
  const icon: JsonObject = { src };
  const mimeType = text(value.mimeType, MAX_CLIENT_INFO_TEXT);
  if (mimeType !== undefined) icon.mimeType = mimeType;
  if (Array.isArray(value.sizes)) {
    icon.sizes = value.sizes
      .filter((size): size is string => typeof size === 'string')
      .slice(0, MAX_CLIENT_INFO_ICONS)
      .map((size) => size.slice(0, MAX_CLIENT_INFO_TEXT));
  }
  if (value.theme === 'light' || value.theme === 'dark') icon.theme = value.theme;
  return icon;
}

/**
 * A host's clientInfo as the gateway forwards it: only the schema's fields, strings cut to their bound,
 * icons whose `src` is over-long dropped, fields of the wrong type left out. Name and version are always
 * there (a stand-in when the host sent none), so the result is a valid `Implementation`.
 */
export function boundedClientInfo(value: unknown): JsonObject {
  const info = isObject(value) ? value : {};
  const out: JsonObject = {
    name: text(info.name, MAX_CLIENT_INFO_TEXT) ?? FALLBACK_NAME,
    version: text(info.version, MAX_CLIENT_INFO_TEXT) ?? FALLBACK_VERSION,
  };
  const title = text(info.title, MAX_CLIENT_INFO_TEXT);
  if (title !== undefined) out.title = title;
  const websiteUrl = whole(info.websiteUrl, MAX_CLIENT_INFO_URL);
  if (websiteUrl !== undefined) out.websiteUrl = websiteUrl;
  if (Array.isArray(info.icons)) {
    const icons = info.icons.slice(0, MAX_CLIENT_INFO_ICONS).map(boundedIcon).filter((icon) => icon !== undefined);
    if (icons.length > 0) out.icons = icons;
  }
  return out;
}
