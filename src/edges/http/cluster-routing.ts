/**
 * @module Which of a host's requests belong to another instance (design 013): one whose session id or parked handle
 * names another owner is forwarded there, and a draining instance hands new work to a live one. Without a cluster
 * link nothing is elsewhere and every request is served here.
 */

import { handleOwnerOf } from '../../bridge/request-state.js';
import { isObject } from '../../protocol/jsonrpc.js';
import type { ClusterLink } from './cluster-forward.js';
import { ownerOfSessionId } from './cluster-link.js';
import { errorResponse } from './status.js';

type Respond = () => Response | Promise<Response>;

export class ClusterRouting {
  readonly #link: ClusterLink | undefined;

  constructor(link: ClusterLink | undefined) {
    this.#link = link;
  }

  /** The instance other than this one that owns the session `sessionId` names, when `req` is a host's own request. */
  sessionOwner(req: Request, sessionId: string | null): string | undefined {
    return this.#link && sessionId ? this.#link.elsewhere(req, ownerOfSessionId(sessionId)) : undefined;
  }

  /** A session's request forwarded to its owner; 404 once the owner is gone (the host initializes again). */
  async forwardSession(req: Request, owner: string): Promise<Response> {
    return (await this.#link?.forward(req, owner)) ?? errorResponse('SESSION_NOT_FOUND', 'Session not found (the gateway instance that held it is gone)');
  }

  /**
   * A 2026-07-28 POST (`body` parsed, `bytes` as sent): a retry whose parked handle names another live instance goes
   * there; one whose owner is gone is served `here` (it is refused as `gone`); while `draining`, a new request is handed
   * to another live instance. The rest is served `here`.
   */
  async modern(req: Request, body: { value: unknown; bytes: Uint8Array }, draining: boolean, here: Respond): Promise<Response> {
    if (!this.#link) return here();
    const state = isObject(body.value) && isObject(body.value.params) ? body.value.params.requestState : undefined;
    const owner = state === undefined ? undefined : this.#link.elsewhere(req, handleOwnerOf(state));
    const forwarded = owner === undefined ? undefined : await this.#link.forward(req, owner, body.bytes);
    if (forwarded) return forwarded;
    return draining && state === undefined ? this.handOff(req, body.bytes, here) : here();
  }

  /** While draining: new work goes to another live instance over the cluster link, when there is one; else `here`. */
  async handOff(req: Request, bytes: Uint8Array, here: Respond): Promise<Response> {
    const peer = await this.#link?.peer(req);
    return (peer === undefined ? undefined : await this.#link?.forward(req, peer, bytes)) ?? here();
  }
}
