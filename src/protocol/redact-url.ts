/** @module Redacts the credentials a URL can carry (userinfo, query values), in a URL alone or wherever one appears in a text. */

/** What replaces a user:password and each query value. */
export const REDACTED_PART = '***';

/** `scheme://`, the authority, then the rest up to white space, a quote, an angle bracket or a backslash (JSON escapes). */
const URL_IN_TEXT = /\b[a-z][a-z\d+.-]*:\/\/[^\s"'`<>\\]+/gi;

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      if (pair === '') return pair;
      const equals = pair.indexOf('=');
      // A bare item (`?sometoken`) may be the secret itself.
      return equals < 0 ? REDACTED_PART : `${pair.slice(0, equals)}=${REDACTED_PART}`;
    })
    .join('&');
}

/**
 * The URL with its userinfo replaced (`https://***@host/p`) and every query value replaced
 * (`?api_key=***&region=***`); the scheme, host, port, path and fragment are kept as written.
 * Text that does not start with `scheme://` is returned unchanged.
 */
export function redactUrl(url: string): string {
  const scheme = /^[a-z][a-z\d+.-]*:\/\//i.exec(url);
  if (scheme === null) return url;
  const start = scheme[0].length;
  const authorityEnd = url.slice(start).search(/[/?#]/);
  const end = authorityEnd < 0 ? url.length : start + authorityEnd;
  const authority = url.slice(start, end);
  const at = authority.lastIndexOf('@');
  let out = url.slice(0, start) + (at < 0 ? authority : `${REDACTED_PART}${authority.slice(at)}`);
  let rest = url.slice(end);
  const hash = rest.indexOf('#');
  const fragment = hash < 0 ? '' : rest.slice(hash);
  if (hash >= 0) rest = rest.slice(0, hash);
  const question = rest.indexOf('?');
  out += question < 0 ? rest : `${rest.slice(0, question + 1)}${redactQuery(rest.slice(question + 1))}`;
  return out + fragment;
}

/** Punctuation after a URL in prose (`(see https://h/p?k=v).`) that belongs to the sentence. */
const TRAILING_PUNCTUATION = /[).,;:!\]]+$/;

/** The text with every URL in it redacted as `redactUrl` does (error messages from fetch embed the URL they failed on). */
export function redactUrlsIn(text: string): string {
  if (!text.includes('://')) return text;
  return text.replace(URL_IN_TEXT, (found) => {
    const tail = TRAILING_PUNCTUATION.exec(found)?.[0] ?? '';
    return redactUrl(found.slice(0, found.length - tail.length)) + tail;
  });
}
