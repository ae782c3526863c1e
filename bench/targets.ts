/** @module Bench target configs: how to start each server under test (direct echo, Switchboard per-session/shared, mcp-proxy, supergateway). */

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort, type SpawnSpec } from './spawn-target.js';

export interface TargetContext {
  repoRoot: string;
  /** Scratch folder for generated config files. */
  tmpDir: string;
  startTimeoutMs: number;
}

export interface TargetDefinition {
  name: string;
  spawnSpec(context: TargetContext): Promise<SpawnSpec>;
}

/** tsx's ESM loader by absolute URL, so the echo upstream starts whatever the child's cwd is. */
const TSX_LOADER = import.meta.resolve('tsx');

/** Node arguments that run the echo upstream over stdio (from any working folder). */
export function echoArgs(repoRoot: string): string[] {
  return ['--import', TSX_LOADER, join(repoRoot, 'bench', 'echo-upstream.ts')];
}

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Switchboard with one stdio echo upstream of `sharing`; `checkout` runs another built checkout's gateway (a baseline). */
export function switchboard(sharing: 'per-session' | 'shared', checkout?: string): TargetDefinition {
  return {
    name: checkout === undefined ? `switchboard ${sharing}` : `switchboard ${sharing} baseline`,
    async spawnSpec({ repoRoot, tmpDir, startTimeoutMs }) {
      const root = checkout ?? repoRoot;
      const configPath = join(tmpDir, `switchboard-${sharing}${checkout === undefined ? '' : '-baseline'}.yaml`);
      // JSON strings are valid YAML scalars, so every path is quoted safely.
      const yaml = [
        'listen: "127.0.0.1:0"',
        'upstreams:',
        '  echo:',
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: ${JSON.stringify(echoArgs(repoRoot))}`,
        `    sharing: ${sharing}`,
        '',
      ].join('\n');
      await writeFile(configPath, yaml);
      return {
        command: process.execPath,
        args: [join(root, 'bin', 'switchboard.mjs'), 'serve', '--config', configPath, '--listen', '127.0.0.1:0'],
        cwd: root,
        url: /Switchboard listening on (http:\/\/\S+\/mcp)/,
        startTimeoutMs,
      };
    },
  };
}

export const TARGETS: TargetDefinition[] = [
  {
    name: 'direct',
    async spawnSpec({ repoRoot, startTimeoutMs }) {
      return {
        command: process.execPath,
        args: [...echoArgs(repoRoot), '--http', '127.0.0.1:0'],
        cwd: repoRoot,
        url: /echo upstream listening on (http:\/\/\S+\/mcp)/,
        startTimeoutMs,
      };
    },
  },
  switchboard('per-session'),
  switchboard('shared'),
  {
    name: 'mcp-proxy',
    async spawnSpec({ repoRoot, startTimeoutMs }) {
      const port = await freePort();
      const bin = join(repoRoot, 'node_modules', 'mcp-proxy', 'dist', 'bin', 'mcp-proxy.mjs');
      return {
        command: process.execPath,
        args: [bin, '--host', '127.0.0.1', '--port', String(port), '--server', 'stream', '--', process.execPath, ...echoArgs(repoRoot)],
        cwd: repoRoot,
        url: `http://127.0.0.1:${port}/mcp`,
        startTimeoutMs,
      };
    },
  },
  {
    name: 'supergateway',
    async spawnSpec({ repoRoot, startTimeoutMs }) {
      const port = await freePort();
      const bin = join(repoRoot, 'node_modules', 'supergateway', 'dist', 'index.js');
      const stdio = [process.execPath, ...echoArgs(repoRoot)].map(shellQuote).join(' ');
      return {
        command: process.execPath,
        // supergateway 4.0.0 has no host flag (it binds every interface); the bench only talks to 127.0.0.1.
        args: [bin, '--stdio', stdio, '--outputTransport', 'streamableHttp', '--stateful', '--port', String(port), '--logLevel', 'none'],
        cwd: repoRoot,
        url: `http://127.0.0.1:${port}/mcp`,
        startTimeoutMs,
      };
    },
  },
];
