/** @module Bench doc writer: puts the results section into docs/benchmarks.md, keeping the intro around it. */

import { readFile, writeFile } from 'node:fs/promises';

/** A section of the doc the bench rewrites: its markers and its heading. */
export interface DocSection {
  start: string;
  end: string;
  heading: string;
}

export const RESULTS: DocSection = { start: '<!-- bench-results:start -->', end: '<!-- bench-results:end -->', heading: 'Results' };
export const ELICITATION_RESULTS: DocSection = { start: '<!-- bench-elicitation:start -->', end: '<!-- bench-elicitation:end -->', heading: 'Elicitation cell results' };
export const IDLE_SCALE_RESULTS: DocSection = { start: '<!-- bench-idle-scale:start -->', end: '<!-- bench-idle-scale:end -->', heading: 'Idle sessions at scale (cell 6) results' };
export const CLUSTER_RESULTS: DocSection = { start: '<!-- bench-cluster:start -->', end: '<!-- bench-cluster:end -->', heading: 'Cluster cell results' };

const INTRO = `# Benchmarks

\`npm run bench\` measures Switchboard against a direct connection and two other gateways, side by side in one run on the same machine, and prints the table below; \`npm run bench -- --write\` also replaces the results section of this file. \`npm run bench -- --quick\` is a smoke test with small counts; \`npm run bench -- --help\` lists the flags (each also has a \`BENCH_*\` environment variable), e.g. \`--targets direct,switchboard-shared\`, \`--rounds\`, \`--calls-1\`, \`--calls-per-session\`, \`--idle-sessions\`.

Method:

- Upstream: \`bench/echo-upstream.ts\`, an SDK \`McpServer\` with one tool, \`echo {text}\`. The gateways spawn it over stdio (through tsx); the \`direct\` target is the same file serving sessionful Streamable HTTP itself (\`--http HOST:PORT\`).
- Targets: \`direct\`; \`switchboard per-session\` and \`switchboard shared\` (\`bin/switchboard.mjs serve\` with that one stdio upstream); \`mcp-proxy\` (stream endpoint, one shared upstream); \`supergateway\` (\`--outputTransport streamableHttp --stateful\`, one upstream per session, \`--logLevel none\`). All are reached on 127.0.0.1. A target that does not start or dies is shown as \`failed: <reason>\`.
- Client: the same raw-\`fetch\` Streamable HTTP client (\`bench/mcp-client.ts\`) for every target: initialize (protocol 2025-11-25), notifications/initialized, then tools/call in a loop, reading JSON or SSE answers, with the Mcp-Session-Id and MCP-Protocol-Version headers. It runs in the bench process, on the same 2 cores as the servers.
- Load: all targets are started together and take turns, in an order that rotates every round: 1 session making sequential calls, then 16 sessions each making sequential calls, each after a warm-up. Calls/s and CPU per call are medians over the rounds; p50/p99 are over every measured call of every round; the "vs direct" ratios are medians of the per-round ratios, so slow changes in the machine's load cancel out.
- Server CPU per call: utime + stime (plus reaped children's) from \`/proc/<pid>/stat\`, summed over the target's whole process tree (upstreams included), during the measured loop at 16 sessions, divided by the calls.
- Idle memory: a fresh instance of each target, with 200 sessions opened (initialize + one tools/list each) and left idle; the value is VmRSS summed over the process tree (shared pages count once per process; the ratio uses it). PSS, which splits shared pages, is shown beside it. The phase stops early if the machine runs low on memory.
- The machine is small and shared with other work, so absolute numbers move a lot between runs: compare ratios within one run.
- Cluster cell (when \`SWITCHBOARD_TEST_PG_URL\` names a PostgreSQL server and haproxy is installed; otherwise reported skipped): three \`switchboard serve\` instances and one behind haproxy, calls/s through the balancer; the operator-answer-to-result latency, answered on the instance holding the call or on another; the database cost of one question.
`;

/** Writes `results` between the markers of `section` in \`path\` (creating the file with its intro when missing, the section at the end when it has none). */
export async function writeResults(path: string, results: string, section: DocSection = RESULTS): Promise<void> {
  const block = `${section.start}\n\n## ${section.heading}\n\n${results.trim()}\n\n${section.end}\n`;
  let doc: string;
  try {
    doc = await readFile(path, 'utf8');
  } catch {
    doc = `${INTRO}\n${RESULTS.start}\n${RESULTS.end}\n`;
  }
  const start = doc.indexOf(section.start);
  const end = doc.indexOf(section.end);
  const next = start >= 0 && end > start ? doc.slice(0, start) + block + doc.slice(end + section.end.length).replace(/^\n/, '') : `${doc.trimEnd()}\n\n${block}`;
  await writeFile(path, next);
}
