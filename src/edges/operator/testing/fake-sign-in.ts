/** @module A stand-in for the console's OpenID Connect sign-in routes, for tests that only need each path served. */

import type { SignInRoutes } from '../sign-in-routes.js';

/** Login redirects, the callback answers a page, logout answers 204: what the real routes answer when all goes well. */
export const FAKE_SIGN_IN: SignInRoutes = {
  login: async () => new Response(null, { status: 302, headers: { location: 'http://provider.example/authorize' } }),
  callback: async () => new Response('<!doctype html>', { status: 200, headers: { 'content-type': 'text/html' } }),
  logout: async () => new Response(null, { status: 204 }),
};
