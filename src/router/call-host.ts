/** @module What the call router needs of the host session whose calls it routes, and of the gateway around it. */

import type { Principal } from '../access/principal.js';
import type { Logger } from '../core/log.js';
import type { JsonObject, JsonRpcId, JsonRpcNotification, JsonRpcRequest } from '../protocol/jsonrpc.js';
import type { UpstreamRound } from '../ports/host-port.js';
import type { QuestionAsker } from '../ports/question-asker.js';
import type { QuestionDesk } from '../questions/desk.js';
import type { QuestionRoute } from '../questions/question-route.js';
import type { QuestionPolicy } from '../questions/route-policy.js';
import type { UpstreamLink } from '../upstream/link.js';
import type { UpstreamSession } from '../upstream/session.js';
import type { AccessGate } from './access-gate.js';
import type { CallHost, CallRegistry } from './calls.js';
import type { Catalog } from './catalog/catalog.js';
import type { QuestionDesk as CompositeDesk } from './composites/composite-elicitation.js';
import type { CompositeTools } from './composites/composite-tools.js';
import type { UrlElicitationRegistry } from './url-elicitations.js';

/** What the host said in initialize: its revision, its capabilities, its (bounded) identity. */
export interface HostInit {
  protocolVersion: string;
  capabilities: JsonObject;
  clientInfo: JsonObject;
  /** Who the host is, as the edge verified it (absent: anonymous); the access policy decides by it. */
  principal?: Principal;
}

/**
 * The host session as the call registry knows it (the owner of its calls, keyed by its id): the questions its
 * calls' upstreams and composites ask are put to it.
 */
export interface RoutedOwner extends CallHost, CompositeDesk {
  deliverQuestion(asker: QuestionAsker, request: JsonRpcRequest, route: QuestionRoute): void;
}

/**
 * What the call router needs of its host session: the session itself (RoutedSession), read through these members, so an
 * idle session holds no adapter of closures for its router.
 */
export interface RoutedHost extends RoutedOwner {
  /** What the host said in initialize; undefined before. */
  readonly profile: HostInit | undefined;
  /** The log level the host set, if any. */
  readonly logLevel: string | undefined;
  /** Whether this host takes tasks (2025-11-25, declared). */
  takesTasks(): boolean;
  /** The merged catalog of this host's links; throws GW_ERR_NOT_INITIALIZED before initialize. */
  catalog(): Catalog;
  /** This host's upstream links (empty before initialize). */
  readonly links: readonly UpstreamLink[];
  /** Sends a notification to the host on the stream that answers its request `streamId`. */
  forward(message: JsonRpcNotification, streamId?: JsonRpcId): void;
  /** An upstream's answer to a tool call it runs as a task: the task as the host knows it, recorded. */
  taskCreated(upstream: UpstreamSession, result: JsonObject): JsonObject;
  /** A stopped call's questions are void: settle them. */
  settleQuestions(upstream: UpstreamSession, upstreamId: number): void;
  /** A 2026-07-28 host takes a 2026-07-28 upstream's round as it is (HostPort.takeRound); absent: the gateway runs the rounds. */
  readonly port: { takeRound?(round: UpstreamRound): Promise<JsonObject | undefined> };
}

/** What the call router needs of the gateway around its host session. */
export interface CallRouterEnv<H extends RoutedOwner> {
  logger: Logger;
  /** Every host call in flight (the gateway's one registry). */
  calls: CallRegistry<H, UpstreamSession>;
  /** Where URL-mode elicitations an upstream requires (-32042) are recorded, so their completion finds its host. */
  urlElicitations: UrlElicitationRegistry<H>;
  /** The question desk (whether an operator can answer) and the route policy (whose upstreams they may answer). */
  questions: { desk: QuestionDesk; policy: QuestionPolicy };
  /** The gateway's composite tools. */
  composites?: CompositeTools;
  /** The access policy between principals and tools, resources and prompts (absent: everything allowed). */
  access?: AccessGate;
}
