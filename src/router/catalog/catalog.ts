/**
 * @module The merged catalog one host session sees: tools, prompts, resources and resource templates of
 * every upstream, filtered, renamed and named by the configured strategy, with the route of each entry.
 */

import type { NamingStrategy, ToolFilter } from '../../config/types.js';
import type { JsonObject } from '../../protocol/jsonrpc.js';
import { isObject } from '../../protocol/jsonrpc.js';
import { GatewayError } from '../../protocol/gateway-errors.js';
import { isTaskOnlyTool } from '../../protocol/tasks.js';
import type { Logger } from '../../core/log.js';
import { applyNaming } from './naming.js';
import type { UpstreamLink } from '../../upstream/link.js';
import type { ListKind } from '../../upstream/list-all.js';
import { LIST_METHOD } from '../../upstream/list-all.js';

export interface Route {
  link: UpstreamLink;
  /** The name the upstream knows (tools, prompts) or the URI / URI template (resources). */
  name: string;
  /** A tool that can only be called as a task (`execution.taskSupport: "required"`), as its upstream listed it. */
  taskOnly?: true;
}

export interface CatalogOptions {
  naming: { strategy: NamingStrategy; separator: string };
  logger: Logger;
}


export function applyToolFilter(tools: JsonObject[], filter: ToolFilter): { exposedName: string; original: string; tool: JsonObject }[] {
  const out: { exposedName: string; original: string; tool: JsonObject }[] = [];
  for (const tool of tools) {
    const original = tool.name;
    if (typeof original !== 'string') continue;
    if (filter.allow && !filter.allow.includes(original)) continue;
    if (filter.deny.includes(original)) continue;
    out.push({ exposedName: filter.rename[original] ?? original, original, tool });
  }
  return out;
}

export class Catalog {
  #links: UpstreamLink[];
  #options: CatalogOptions;
  /** The routes of each list as last built (absent: not listed yet, or empty; an idle host holds no tables). */
  #routes: Record<ListKind, Map<string, Route> | undefined> = { tools: undefined, prompts: undefined, resources: undefined, resourceTemplates: undefined };

  constructor(links: UpstreamLink[], options: CatalogOptions) {
    this.#links = links;
    this.#options = options;
  }

  /** Builds the merged list of one kind (and refreshes its routes). Upstreams that fail are skipped. */
  async list(kind: ListKind): Promise<JsonObject[]> {
    const perUpstream = await Promise.all(
      this.#links.map(async (link) => {
        try {
          return { link, items: await link.list(kind) };
        } catch (error) {
          this.#options.logger.log('warn', `skipping upstream '${link.spec.name}' in ${LIST_METHOD[kind]}`, { error: String(error) });
          return { link, items: [] as JsonObject[] };
        }
      }),
    );
    if (kind === 'tools' || kind === 'prompts') return this.#named(kind, perUpstream);
    return this.#byUri(kind, perUpstream);
  }

  /** Route of a tool or prompt by exposed name, of a resource by URI, of a template by URI template. */
  async route(kind: ListKind, key: string): Promise<Route | undefined> {
    const known = this.#routes[kind]?.get(key);
    if (known) return known;
    await this.list(kind);
    return this.#routes[kind]?.get(key);
  }

  /** The route of a tool or prompt a host named; GW_ERR_UNKNOWN_TOOL / GW_ERR_UNKNOWN_PROMPT when none has that name. */
  async routeNamed(kind: 'tools' | 'prompts', name: unknown): Promise<Route> {
    if (typeof name !== 'string') throw new GatewayError('GW_ERR_INVALID_PARAMS', `Invalid params: name must be a string`);
    const route = await this.route(kind, name);
    if (route) return route;
    throw kind === 'tools' ? new GatewayError('GW_ERR_UNKNOWN_TOOL', `Unknown tool: ${name}`) : new GatewayError('GW_ERR_UNKNOWN_PROMPT', `Unknown prompt: ${name}`);
  }

  /**
   * The upstream of a resource URI: the one that listed it, else the one with a matching template, else the
   * only upstream offering resources at all; GW_ERR_UNKNOWN_RESOURCE otherwise.
   */
  async routeResource(uri: unknown): Promise<Route> {
    if (typeof uri !== 'string') throw new GatewayError('GW_ERR_INVALID_PARAMS', 'Invalid params: uri must be a string');
    const exact = await this.route('resources', uri);
    if (exact) return { link: exact.link, name: uri };
    for (const [template, route] of await this.templates()) {
      if (matchesTemplate(template, uri)) return { link: route.link, name: uri };
    }
    const capable = this.#links.filter((link) => isObject(link.serverCapabilities()?.resources));
    if (capable.length === 1 && capable[0]) return { link: capable[0], name: uri };
    throw new GatewayError('GW_ERR_UNKNOWN_RESOURCE', `Resource not found: ${uri}`);
  }

  /** Every template route (for matching a URI against templates). */
  async templates(): Promise<[string, Route][]> {
    if (this.#routes.resourceTemplates === undefined) await this.list('resourceTemplates');
    return [...(this.#routes.resourceTemplates ?? [])];
  }

  #named(kind: 'tools' | 'prompts', perUpstream: { link: UpstreamLink; items: JsonObject[] }[]): JsonObject[] {
    const entries = perUpstream.map(({ link, items }) => {
      const named =
        kind === 'tools'
          ? applyToolFilter(items, link.spec.tools)
          : items.filter((p) => typeof p.name === 'string').map((p) => ({ exposedName: p.name as string, original: p.name as string, tool: p }));
      return { link, named };
    });
    const outcome = applyNaming(
      entries.map(({ link, named }) => ({ upstream: link.spec.name, names: named.map((n) => n.exposedName) })),
      this.#options.naming.strategy,
      this.#options.naming.separator,
    );
    for (const hidden of outcome.hidden) {
      this.#options.logger.log('warn', `hiding ${kind === 'tools' ? 'tool' : 'prompt'} '${hidden.name}' of upstream '${hidden.upstream}': ${hidden.reason}`);
    }
    const routes = new Map<string, Route>();
    const list: JsonObject[] = [];
    const byUpstream = new Map(entries.map((e) => [e.link.spec.name, e]));
    for (const [exposedName, { upstream, name }] of outcome.exposed) {
      const entry = byUpstream.get(upstream);
      const item = entry?.named.find((n) => n.exposedName === name);
      if (!entry || !item) continue;
      routes.set(exposedName, kind === 'tools' && isTaskOnlyTool(item.tool) ? { link: entry.link, name: item.original, taskOnly: true } : { link: entry.link, name: item.original });
      list.push(exposedName === item.original ? item.tool : { ...item.tool, name: exposedName });
    }
    this.#keep(kind, routes);
    return list;
  }

  /** Keeps a list's routes; an empty one is not kept (the next lookup lists again, as before). */
  #keep(kind: ListKind, routes: Map<string, Route>): void {
    this.#routes[kind] = routes.size > 0 ? routes : undefined;
  }

  #byUri(kind: 'resources' | 'resourceTemplates', perUpstream: { link: UpstreamLink; items: JsonObject[] }[]): JsonObject[] {
    const field = kind === 'resources' ? 'uri' : 'uriTemplate';
    const routes = new Map<string, Route>();
    const list: JsonObject[] = [];
    for (const { link, items } of perUpstream) {
      for (const item of items) {
        const key = item[field];
        if (typeof key !== 'string') continue;
        if (routes.has(key)) {
          this.#options.logger.log('warn', `hiding ${field} '${key}' of upstream '${link.spec.name}': another upstream listed it first`);
          continue;
        }
        routes.set(key, { link, name: key });
        list.push(item);
      }
    }
    this.#keep(kind, routes);
    return list;
  }
}

/** Whether a URI matches an RFC 6570 level-1 style template (`{var}` matches one or more non-slash characters; `{+var}` anything). */
export function matchesTemplate(template: string, uri: string): boolean {
  let pattern = '^';
  let last = 0;
  for (const match of template.matchAll(/\{([+#]?)[^}]*\}/g)) {
    pattern += escapeRegExp(template.slice(last, match.index));
    pattern += match[1] ? '.+' : '[^/]+';
    last = match.index + match[0].length;
  }
  pattern += `${escapeRegExp(template.slice(last))}$`;
  return new RegExp(pattern).test(uri);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
