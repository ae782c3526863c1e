/** @module `GET /metrics` as a web-standard handler: the registry in the Prometheus text format, behind an operator credential. */

import { createBearerCheck } from './operator/bearer-auth.js';
import type { MetricsRegistry } from '../observability/metrics.js';

export const METRICS_PATH = '/metrics';

export interface MetricsRouteOptions {
  registry: MetricsRegistry;
  /** The token a scraper sends as `Authorization: Bearer <token>`: not empty, no white space. */
  token?: string;
  /** Instead of `token`: whether a request carries an operator credential (the operator token where accepted, an access token). */
  authorize?: (req: Request) => Promise<boolean>;
}

export interface MetricsRoute {
  /** The response for `/metrics`, or undefined for any other path (the caller routes it elsewhere). */
  handle(req: Request): Promise<Response | undefined>;
}

const TEXT_HEADERS = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };

/** The exposition as a body: the registry renders asynchronously, the handler answers at once. */
function exposition(registry: MetricsRegistry): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async start(controller) {
      controller.enqueue(new TextEncoder().encode(await registry.render()));
      controller.close();
    },
  });
}

export function createMetricsRoute(options: MetricsRouteOptions): MetricsRoute {
  const { token } = options;
  if (token !== undefined && token.length === 0) throw new Error('the metrics token must not be empty');
  if (token !== undefined && /\s/.test(token)) throw new Error('the metrics token must not contain white space (it could never be sent as one Bearer token)');
  const check = token === undefined ? undefined : createBearerCheck(token);
  const authorized = options.authorize ?? (async (req: Request) => check?.(req.headers.get('authorization')) === true);
  const { registry } = options;
  return {
    async handle(req) {
      if (new URL(req.url).pathname !== METRICS_PATH) return undefined;
      // Authorization first: without the token, nothing about the route is told (not even its methods).
      if (!(await authorized(req))) {
        return new Response('Send Authorization: Bearer <operator token or access token>\n', {
          status: 401,
          headers: { ...TEXT_HEADERS, 'www-authenticate': 'Bearer realm="switchboard"' },
        });
      }
      if (req.method !== 'GET') {
        return new Response(`${req.method} is not allowed here; use GET\n`, { status: 405, headers: { ...TEXT_HEADERS, allow: 'GET' } });
      }
      return new Response(exposition(registry), { status: 200, headers: { 'content-type': registry.contentType, 'cache-control': 'no-store' } });
    },
  };
}
