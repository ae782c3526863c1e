/** @module `${VAR}` expansion from the environment in the config strings that allow it (env, headers, args, url, auth, console.token, requestState.keys, store.url, cluster.id, cluster.advertise, cluster.secret, tracing.endpoint and tracing.headers, the auth section's issuers, clients and secrets, each notify target's url, secret and header values). */

/** Where expansion failed: the config path of the string and what is wrong. */
export interface ExpansionProblem {
  path: (string | number)[];
  message: string;
}

export type Environment = Readonly<Record<string, string | undefined>>;

const REFERENCE_RE = /\$\$\{|\$\{([^}]*)\}?/g;
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Replaces each `${NAME}` with the variable's value; `$${` stands for a literal `${`.
 * A set-but-empty variable expands to "". Throws an Error naming an unset variable or a malformed reference.
 */
export function expandVariables(text: string, env: Environment): string {
  return text.replace(REFERENCE_RE, (whole, name: string | undefined) => {
    if (whole === '$${') return '${';
    if (!whole.endsWith('}')) throw new Error(`has an unclosed "\${" (write $\${ for a literal "\${")`);
    if (name === undefined || !NAME_RE.test(name)) {
      throw new Error(`has a bad variable reference ${JSON.stringify(whole)} (expected \${NAME}, NAME of letters, digits and _)`);
    }
    const value = env[name];
    if (value === undefined) throw new Error(`uses environment variable ${name}, which is not set`);
    return value;
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Expands variables in place in the raw (not yet validated) config: `upstreams.*.url`, every string in
 * `upstreams.*.args`, and the string values of `upstreams.*.env`, `upstreams.*.headers` and `upstreams.*.auth`
 * (except `type`), `console.token`, every `requestState.keys` entry, `store.url` and `cluster.id`, `cluster.advertise` and `cluster.secret`
 * (one file for every instance, each instance's values from its environment), and in `auth`: `hosts.issuer`, `hosts.audience`,
 * `hosts.jwksUri`, `hosts.introspection.*`, and `operators.oidc` `issuer`, `clientId`, `clientSecret`, `audience`, `cookieSecret`; each `notify`
 * target's `url`, `secret` and `headers` values.
 * Anything of an unexpected shape is left for the schema to report. Returns the problems found.
 */
export function expandConfigVariables(raw: unknown, env: Environment): ExpansionProblem[] {
  const problems: ExpansionProblem[] = [];
  const expandAt = (holder: Record<string | number, unknown>, key: string | number, path: (string | number)[]): void => {
    const value = holder[key];
    if (typeof value !== 'string') return;
    try {
      holder[key] = expandVariables(value, env);
    } catch (error) {
      problems.push({ path: [...path, key], message: (error as Error).message });
    }
  };
  if (!isPlainObject(raw)) return problems;
  const consoleSettings = raw['console'];
  if (isPlainObject(consoleSettings)) expandAt(consoleSettings, 'token', ['console']);
  const store = raw['store'];
  if (isPlainObject(store)) expandAt(store, 'url', ['store']);
  const cluster = raw['cluster'];
  if (isPlainObject(cluster)) for (const key of ['id', 'advertise', 'secret']) expandAt(cluster, key, ['cluster']);
  expandAuth(raw['auth'], expandAt);
  const tracing = raw['tracing'];
  if (isPlainObject(tracing)) {
    expandAt(tracing, 'endpoint', ['tracing']);
    const headers = tracing['headers'];
    if (isPlainObject(headers)) for (const key of Object.keys(headers)) expandAt(headers, key, ['tracing', 'headers']);
  }
  expandNotify(raw['notify'], expandAt);
  const requestState = raw['requestState'];
  const keys = isPlainObject(requestState) ? requestState['keys'] : undefined;
  if (Array.isArray(keys)) keys.forEach((_, index) => expandAt(keys as unknown[] as Record<number, unknown>, index, ['requestState', 'keys']));
  if (!isPlainObject(raw['upstreams'])) return problems;
  for (const [name, upstream] of Object.entries(raw['upstreams'])) {
    if (!isPlainObject(upstream)) continue;
    const base = ['upstreams', name];
    expandAt(upstream, 'url', base);
    const args = upstream['args'];
    if (Array.isArray(args)) args.forEach((_, index) => expandAt(args as unknown[] as Record<number, unknown>, index, [...base, 'args']));
    for (const mapKey of ['env', 'headers']) {
      const map = upstream[mapKey];
      if (isPlainObject(map)) for (const key of Object.keys(map)) expandAt(map, key, [...base, mapKey]);
    }
    const auth = upstream['auth'];
    if (isPlainObject(auth)) for (const key of Object.keys(auth)) if (key !== 'type') expandAt(auth, key, [...base, 'auth']);
  }
  return problems;
}

/** Each `notify` target's url, secret and header values. */
function expandNotify(notify: unknown, expandAt: ExpandAt): void {
  if (!Array.isArray(notify)) return;
  notify.forEach((target: unknown, index) => {
    if (!isPlainObject(target)) return;
    const base = ['notify', index];
    expandAt(target, 'url', base);
    expandAt(target, 'secret', base);
    const headers = target['headers'];
    if (isPlainObject(headers)) for (const key of Object.keys(headers)) expandAt(headers, key, [...base, 'headers']);
  });
}

type ExpandAt = (holder: Record<string | number, unknown>, key: string | number, path: (string | number)[]) => void;

/** The `auth` strings that may name a variable: where the issuers are, and the clients and secrets the gateway uses there. */
function expandAuth(auth: unknown, expandAt: ExpandAt): void {
  if (!isPlainObject(auth)) return;
  const hosts = auth['hosts'];
  if (isPlainObject(hosts)) {
    for (const key of ['issuer', 'audience', 'jwksUri']) expandAt(hosts, key, ['auth', 'hosts']);
    const introspection = hosts['introspection'];
    if (isPlainObject(introspection)) for (const key of ['endpoint', 'clientId', 'clientSecret']) expandAt(introspection, key, ['auth', 'hosts', 'introspection']);
  }
  const operators = auth['operators'];
  const oidc = isPlainObject(operators) ? operators['oidc'] : undefined;
  if (isPlainObject(oidc)) for (const key of ['issuer', 'clientId', 'clientSecret', 'audience', 'cookieSecret']) expandAt(oidc, key, ['auth', 'operators', 'oidc']);
}
