/** @module The console's cookies on the wire: reading one from a `Cookie` header, and writing `Set-Cookie` with its attributes. */

/** The value of cookie `name` in a `Cookie` header (the first one sent), or undefined. */
export function readCookie(header: string | null, name: string): string | undefined {
  if (header === null) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    if (part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

export interface CookieAttributes {
  path: string;
  /** Seconds; 0 clears the cookie. */
  maxAge: number;
  sameSite: 'Strict' | 'Lax';
  /** Sent only over https (set unless the gateway listens on loopback). */
  secure: boolean;
}

/** A `Set-Cookie` value; always HttpOnly (no script reads these cookies). The value must be cookie-safe (our sealed values are base64url and dots). */
export function setCookie(name: string, value: string, attributes: CookieAttributes): string {
  if (!/^[A-Za-z0-9._-]*$/.test(value)) throw new Error(`cookie ${name}: the value is not cookie-safe`);
  return [`${name}=${value}`, `Path=${attributes.path}`, `Max-Age=${Math.max(0, Math.floor(attributes.maxAge))}`, 'HttpOnly', `SameSite=${attributes.sameSite}`, ...(attributes.secure ? ['Secure'] : [])].join('; ');
}
