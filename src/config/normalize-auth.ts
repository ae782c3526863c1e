/** @module The `auth` and `policy` sections, from the validated file to the normalized IR. */

import type { AnswererRule } from '../access/answerers.js';
import type { PolicyRule } from '../access/policy.js';
import { DEFAULT_TOKEN_ALGORITHMS } from './sections/auth.js';
import type { ParsedConfigFile } from './schema.js';
import type { HostAuthSettings, NormalizedConfig, OperatorAuthSettings } from './types.js';

type ParsedAuth = ParsedConfigFile['auth'];
type ParsedPolicy = ParsedConfigFile['policy'];

/** Copies the optional keys of `from` that are set (no `undefined` values in the IR). */
function defined<T extends object>(from: T): Partial<T> {
  return Object.fromEntries(Object.entries(from).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function normalizeHosts(hosts: ParsedAuth['hosts']): HostAuthSettings {
  if (hosts.type === 'none') return { kind: 'none' };
  if (hosts.type === 'apiKeys') {
    return { kind: 'apiKeys', keys: hosts.keys.map((key) => ({ sha256: key.sha256, subject: key.subject, ...defined({ name: key.name }), groups: [...key.groups], scopes: [...key.scopes] })) };
  }
  return {
    kind: 'oauth',
    issuer: hosts.issuer,
    ...defined({ audience: hosts.audience, jwksUri: hosts.jwksUri }),
    algorithms: [...(hosts.algorithms ?? DEFAULT_TOKEN_ALGORITHMS)],
    ...(hosts.introspection === undefined ? {} : { introspection: { ...defined({ endpoint: hosts.introspection.endpoint }), clientId: hosts.introspection.clientId, clientSecret: hosts.introspection.clientSecret } }),
    scopes: [...hosts.scopes],
    groupsClaim: hosts.groupsClaim,
    clockToleranceMs: hosts.clockTolerance,
  };
}

function normalizeOperators(operators: ParsedAuth['operators']): OperatorAuthSettings {
  const { oidc } = operators;
  // With OIDC the shared token is off unless asked for, and then taken from loopback clients only (bootstrap).
  const token = oidc === undefined ? (operators.token === false ? 'off' : 'everywhere') : operators.token === true ? 'loopback' : 'off';
  if (oidc === undefined) return { token };
  return {
    oidc: {
      issuer: oidc.issuer,
      clientId: oidc.clientId,
      ...defined({ clientSecret: oidc.clientSecret, cookieSecret: oidc.cookieSecret }),
      audience: oidc.audience ?? oidc.clientId,
      scopes: [...oidc.scopes],
      groupsClaim: oidc.groupsClaim,
      sessionTtlMs: oidc.sessionTtl,
    },
    token,
  };
}

export function normalizeAuth(auth: ParsedAuth): NormalizedConfig['auth'] {
  return { hosts: normalizeHosts(auth.hosts), operators: normalizeOperators(auth.operators) };
}

const copyList = (list: readonly string[] | undefined) => (list === undefined ? undefined : [...list]);

export function normalizePolicy(policy: ParsedPolicy): NormalizedConfig['policy'] {
  const rules: PolicyRule[] = policy.rules.map((rule) => ({
    effect: rule.effect,
    ...defined({
      subjects: copyList(rule.subjects),
      groups: copyList(rule.groups),
      scopes: copyList(rule.scopes),
      tools: copyList(rule.tools),
      resources: copyList(rule.resources),
      prompts: copyList(rule.prompts),
    }),
  }));
  const answerers: AnswererRule[] = policy.answerers.map((rule) =>
    defined({ subjects: copyList(rule.subjects), groups: copyList(rule.groups), scopes: copyList(rule.scopes), upstreams: copyList(rule.upstreams), tools: copyList(rule.tools) }),
  );
  return { default: policy.default, rules, answerers };
}
