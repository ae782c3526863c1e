/**
 * @module e2e/harness/oidc-user-agent: a headless user agent for the tests' OpenID provider: it follows the
 * provider's redirects with fetch and a cookie jar kept by hand, and fills in and submits the provider's own login
 * and consent pages (oidc-provider's `devInteractions`) as a browser would, until the provider redirects elsewhere.
 */
import { createHash, randomBytes } from 'node:crypto';

/** A PKCE pair: `challenge` is the S256 of `verifier`. */
export interface Pkce {
  readonly verifier: string;
  readonly challenge: string;
}

/** 32 random bytes, base64url: a state, a nonce or a PKCE verifier. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export function createPkce(): Pkce {
  const verifier = randomToken();
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface Credentials {
  readonly login: string;
  readonly password: string;
}

/** More than a login and a consent take (each is a page, a post and a resume redirect). */
const MAX_STEPS = 20;

/** Name → value; a cookie the server expires is dropped. Paths are ignored: the provider's names do not collide. */
class CookieJar {
  readonly #cookies = new Map<string, string>();

  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const split = pair.indexOf('=');
      if (split <= 0) continue;
      const name = pair.slice(0, split).trim();
      const expired = attributes.some((attribute) => {
        const [key = '', value = ''] = attribute.split('=').map((part) => part.trim());
        if (key.toLowerCase() === 'max-age') return Number(value) <= 0;
        if (key.toLowerCase() === 'expires') return Date.parse(value) <= Date.now();
        return false;
      });
      if (expired) this.#cookies.delete(name);
      else this.#cookies.set(name, pair.slice(split + 1).trim());
    }
  }
}

interface PageForm {
  readonly action: string;
  /** Every named input with its value (hidden ones included; text and password ones as the page filled them). */
  readonly fields: Record<string, string>;
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match?.[1]?.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

/** The page's first form, or undefined. */
function firstForm(html: string): PageForm | undefined {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/.exec(html);
  if (!form) return undefined;
  const action = attribute(form[1] ?? '', 'action');
  if (action === undefined) return undefined;
  const fields: Record<string, string> = {};
  for (const input of (form[2] ?? '').matchAll(/<input\b([^>]*)>/g)) {
    const name = attribute(input[1] ?? '', 'name');
    if (name !== undefined) fields[name] = attribute(input[1] ?? '', 'value') ?? '';
  }
  return { action, fields };
}

/** The form's fields as this user submits them: the login page gets the credentials, the consent page is accepted as is. */
function filledIn(form: PageForm, credentials: Credentials, at: string): Record<string, string> {
  switch (form.fields.prompt) {
    case 'login':
      if (!('login' in form.fields) || !('password' in form.fields)) throw new Error(`the login page at ${at} has no login or password field`);
      return { ...form.fields, login: credentials.login, password: credentials.password };
    case 'consent':
      return form.fields;
    default:
      throw new Error(`unexpected form at ${at}: ${JSON.stringify(form.fields)}`);
  }
}

/**
 * Requests `authorizationUrl` and goes on through the provider at `issuer` (redirects, the login page, the consent
 * page) until the provider redirects anywhere else; returns that redirect (the client's redirect URI with `code`
 * and `state`, or with `error`) without following it. Throws on any page it does not expect.
 */
export async function driveAuthorization(issuer: string, authorizationUrl: string, credentials: Credentials): Promise<URL> {
  const origin = new URL(issuer).origin;
  const jar = new CookieJar();
  let next: { url: URL; body?: URLSearchParams } = { url: new URL(authorizationUrl) };
  for (let step = 0; step < MAX_STEPS; step++) {
    const { url, body } = next;
    const headers: Record<string, string> = { accept: 'text/html' };
    const cookie = jar.header();
    if (cookie !== '') headers.cookie = cookie;
    const response = await fetch(url, { method: body ? 'POST' : 'GET', headers, body, redirect: 'manual' });
    jar.take(response);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      const target = new URL(location, url);
      if (target.origin !== origin) return target;
      next = { url: target };
      continue;
    }
    const html = await response.text();
    const form = response.status === 200 ? firstForm(html) : undefined;
    if (!form) throw new Error(`authorization stopped at ${url.href}: HTTP ${response.status}\n${html.slice(0, 2_000)}`);
    next = { url: new URL(form.action, url), body: new URLSearchParams(filledIn(form, credentials, url.href)) };
  }
  throw new Error(`authorization did not leave ${origin} within ${MAX_STEPS} steps`);
}
