/** @module Test doubles for the gateway core: upstream specs, a minimal config, a scripted host that records what it is sent, and a wait for a delivered question. */

import assert from 'node:assert/strict';

import type { QuestionDesk } from '../../questions/desk.js';
import type { QuestionRecord } from '../../questions/question.js';
import type { NormalizedConfig, SharingMode, UpstreamSpec } from '../../config/types.js';
import type { JsonObject, JsonRpcId, JsonRpcMessage } from '../../protocol/jsonrpc.js';
import type { HostSession } from '../../ports/host-contracts.js';
import type { GatewayHostSession } from '../../hosts/legacy/host-session.js';
import type { createGateway } from '../gateway.js';
import { TEST_HTTP_SETTINGS } from '../../edges/http/testing/http-settings.js';

export function spec(name: string, sharing: SharingMode = 'per-session', extra: Partial<UpstreamSpec> = {}): UpstreamSpec {
  return {
    name,
    kind: 'stdio',
    command: 'fake',
    args: [],
    env: {},
    sharing,
    lists: 'shared',
    tools: { deny: [], rename: {} },
    requestTimeoutMs: 2000,
    connectTimeoutMs: 2000,
    era: 'auto',
    inputRequired: { maxRounds: 8, deadlineMs: 2000 },
    ...extra,
  } as UpstreamSpec;
}

export function config(upstreams: UpstreamSpec[]): NormalizedConfig {
  return {
    listen: { host: '127.0.0.1', port: 0 },
    upstreams,
    naming: { strategy: 'prefix-on-conflict', separator: '_' },
    http: { ...TEST_HTTP_SETTINGS, maxBodyBytes: 1_000_000 },
    pageSize: 100,
    retry: { initialDelayMs: 50, maxDelayMs: 200 },
    questions: { approvers: {}, route: 'host-then-operator', timeoutMs: 300_000, sampling: 'host', consent: 'host' },
    console: { enabled: false },
    auth: { hosts: { kind: 'none' }, operators: { token: 'everywhere' } },
    policy: { default: 'allow', rules: [], answerers: [] },
    store: { kind: 'memory' },
    cluster: { deadAfterMs: 15_000, drainTimeoutMs: 0 },
    requestState: {},
    log: { format: 'text' },
    tracing: {},
    composites: [],
    notify: [],
  };
}

export interface Sent {
  message: JsonRpcMessage;
  related: JsonRpcId | undefined;
}

/** A host: records what the gateway sends it and can wait for a given message. */
export class Host {
  readonly sent: Sent[] = [];
  /** The legacy host session (its question bookkeeping visible to the tests: see `legacySession`). */
  session!: HostSession;
  #waiters: { match: (s: Sent) => boolean; resolve: (s: Sent) => void }[] = [];
  #nextId = 1;

  channel = {
    send: (message: JsonRpcMessage, related?: JsonRpcId) => {
      const entry = { message, related };
      this.sent.push(entry);
      for (const waiter of [...this.#waiters]) {
        if (waiter.match(entry)) {
          this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
          waiter.resolve(entry);
        }
      }
    },
  };

  waitFor(match: (s: Sent) => boolean): Promise<Sent> {
    const found = this.sent.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for a host message')), 3000);
      this.#waiters.push({ match, resolve: (s) => (clearTimeout(timer), resolve(s)) });
    });
  }

  /** Sends a request and resolves with its response. */
  async request(method: string, params?: JsonObject, id: JsonRpcId = this.#nextId++): Promise<JsonRpcMessage> {
    this.session.receive(params ? { jsonrpc: '2.0', id, method, params } : { jsonrpc: '2.0', id, method });
    const reply = await this.waitFor((s) => !('method' in s.message) && s.message.id === id);
    return reply.message;
  }

  question(method: string): Promise<Sent> {
    return this.waitFor((s) => 'method' in s.message && s.message.method === method && 'id' in s.message);
  }
}

export async function connectHost(gateway: ReturnType<typeof createGateway>, capabilities: JsonObject = {}, protocolVersion = '2025-11-25'): Promise<Host> {
  const host = new Host();
  host.session = gateway.openSession(host.channel);
  const init = await host.request('initialize', { protocolVersion, capabilities, clientInfo: { name: 'test-host', version: '1' } });
  assert.ok('result' in init);
  host.session.receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return host;
}

/** The first open question once one is delivered (polled every 5 ms, about a second at most). */
export async function openQuestion(desk: QuestionDesk): Promise<QuestionRecord> {
  for (let i = 0; i < 200; i += 1) {
    const [open] = await desk.list({ state: ['pending', 'delivered'] });
    if (open && open.state === 'delivered') return open;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('no open question appeared');
}

/** The gateway's session behind `session`, for what only the legacy host session tells (whether it awaits an answer). */
export function legacySession(session: HostSession): GatewayHostSession {
  return session as GatewayHostSession;
}
