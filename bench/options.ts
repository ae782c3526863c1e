/** @module Bench options: command-line flags, BENCH_* environment variables, full and `--quick` defaults. */

export interface BenchOptions {
  help: boolean;
  quick: boolean;
  write: boolean;
  /** Measured calls of the single-session phase. */
  calls1: number;
  /** Concurrent host sessions of the multi-session phase. */
  concurrency: number;
  /** Measured calls of each session in the multi-session phase. */
  callsPerSession: number;
  /** Warm-up calls before each measured phase (spread over its sessions). */
  warmup: number;
  /** Load rounds; the targets take turns within each round. */
  rounds: number;
  /** Idle initialized sessions held open for the memory sample. */
  idleSessions: number;
  /** Idle sessions of cell 6 (`idle-10k`): the gateway's RSS per session. */
  idleScaleSessions: number;
  /** Target names to run (empty = all). */
  targets: string[];
  /** Another built checkout of Switchboard, benched beside this one in the same run (its per-session and shared targets). */
  baseline: string | undefined;
  /** Time limit of one measured loop, one idle phase, in milliseconds. */
  phaseTimeoutMs: number;
  startTimeoutMs: number;
  requestTimeoutMs: number;
  /** The idle phase stops opening sessions below this much free memory, in MB. */
  minFreeMb: number;
  /** Load rounds of the cluster cell (three instances and one take turns). */
  clusterRounds: number;
  /** Operator answers timed in the cluster cell, of each kind (same instance, other instance). */
  clusterSamples: number;
  /** Load rounds of the elicitation cells. */
  elicitationRounds: number;
  /** Measured round trips of one elicitation host; at N sessions each makes an eighth of them. */
  elicitationCalls: number;
  /** The same for a peer row (mcp-proxy, supergateway) of the elicitation cells. */
  elicitationPeerCalls: number;
  /** When set, the elicitation cells' gateways run with `node --cpu-prof`, writing their profiles here. */
  profileDir: string | undefined;
}

const NUMERIC = {
  calls1: ['--calls-1', 'BENCH_CALLS_1', 2000, 200],
  concurrency: ['--concurrency', 'BENCH_CONCURRENCY', 16, 16],
  callsPerSession: ['--calls-per-session', 'BENCH_CALLS_PER_SESSION', 300, 20],
  warmup: ['--warmup', 'BENCH_WARMUP', 200, 20],
  rounds: ['--rounds', 'BENCH_ROUNDS', 5, 1],
  idleSessions: ['--idle-sessions', 'BENCH_IDLE_SESSIONS', 200, 20],
  idleScaleSessions: ['--idle-scale-sessions', 'BENCH_IDLE_SCALE_SESSIONS', 10_000, 1000],
  phaseTimeoutMs: ['--phase-timeout-ms', 'BENCH_PHASE_TIMEOUT_MS', 300_000, 60_000],
  startTimeoutMs: ['--start-timeout-ms', 'BENCH_START_TIMEOUT_MS', 30_000, 30_000],
  requestTimeoutMs: ['--request-timeout-ms', 'BENCH_REQUEST_TIMEOUT_MS', 30_000, 30_000],
  minFreeMb: ['--min-free-mb', 'BENCH_MIN_FREE_MB', 2048, 2048],
  clusterRounds: ['--cluster-rounds', 'BENCH_CLUSTER_ROUNDS', 3, 1],
  clusterSamples: ['--cluster-samples', 'BENCH_CLUSTER_SAMPLES', 150, 20],
  elicitationRounds: ['--elicitation-rounds', 'BENCH_ELICITATION_ROUNDS', 3, 1],
  elicitationCalls: ['--elicitation-calls', 'BENCH_ELICITATION_CALLS', 500, 100],
  elicitationPeerCalls: ['--elicitation-peer-calls', 'BENCH_ELICITATION_PEER_CALLS', 100, 10],
} as const satisfies Record<string, readonly [string, string, number, number]>;

export const USAGE = [
  'usage: npm run bench -- [--quick] [--write] [--targets a,b] [options]',
  '  --quick                 small counts for a smoke test',
  '  --write                 also write the results into docs/benchmarks.md',
  '  --targets LIST          comma-separated target names (env BENCH_TARGETS), `cluster` for the cluster cell; default: all',
  '  --baseline DIR          also bench the Switchboard checkout in DIR (built: dist/), side by side (env BENCH_BASELINE)',
  '  --profile-dir DIR       run the elicitation cells\' gateways under node --cpu-prof, profiles in DIR (env BENCH_PROFILE_DIR)',
  '  `--targets elicitation` runs the four elicitation cells (issue 15), `elicitation-N` one of them; `idle-10k` runs cell 6 (gateway RSS per idle session)',
  '  the cluster cell needs PostgreSQL (SWITCHBOARD_TEST_PG_URL, e.g. from scripts/test-postgres.sh start) and haproxy; without them it is reported skipped',
  ...Object.values(NUMERIC).map(([flag, env, full, quick]) => `  ${`${flag} N`.padEnd(24)}env ${env}; default ${full}, quick ${quick}`),
].join('\n');

function positiveInteger(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return value;
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions {
  const flags = new Map<string, string>();
  const switches = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [name, inline] = arg.split('=', 2) as [string, string | undefined];
    if (name === '--quick' || name === '--write' || name === '--help') switches.add(name);
    else if (name === '--targets' || name === '--baseline' || name === '--profile-dir' || Object.values(NUMERIC).some(([flag]) => flag === name)) {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new Error(`${name} needs a value`);
      flags.set(name, value);
    } else throw new Error(`unknown argument ${arg}\n${USAGE}`);
  }
  const quick = switches.has('--quick') || env.BENCH_QUICK === '1';
  const numbers = Object.fromEntries(
    Object.entries(NUMERIC).map(([key, [flag, envName, full, short]]) => {
      const raw = flags.get(flag) ?? env[envName];
      return [key, raw === undefined ? (quick ? short : full) : positiveInteger(flag, raw)];
    }),
  ) as Record<keyof typeof NUMERIC, number>;
  const targets = (flags.get('--targets') ?? env.BENCH_TARGETS ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const baseline = flags.get('--baseline') ?? env.BENCH_BASELINE;
  const profileDir = flags.get('--profile-dir') ?? env.BENCH_PROFILE_DIR;
  return {
    help: switches.has('--help'),
    quick,
    write: switches.has('--write'),
    targets,
    baseline: baseline === '' ? undefined : baseline,
    profileDir: profileDir === '' ? undefined : profileDir,
    ...numbers,
  };
}
