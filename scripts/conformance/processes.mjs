/** @module scripts/conformance/processes: spawns child processes in their own process group, waits for ready lines, stops them. */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';

/** Started and not yet stopped (an exited leader may still have children in its group). */
const running = new Set();

/**
 * Starts `command args` with stdout/stderr piped into `logPath` (always drained, so the child never blocks).
 * `onStdout`/`onStderr` also receive every chunk. The child leads its own process group, so
 * `stopProcess` also ends whatever it spawned (the gateway's upstream, for instance).
 */
export function startProcess(name, command, args, { logPath, cwd, onStdout, onStderr } = {}) {
  const log = logPath ? createWriteStream(logPath, { flags: 'a' }) : undefined;
  const child = spawn(command, args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const proc = { name, child, log, stderrTail: '', exited: false, exitCode: null, signal: null };
  proc.done = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      proc.exited = true;
      proc.exitCode = code;
      proc.signal = signal;
      resolve();
    });
    child.once('error', (error) => {
      proc.stderrTail += `\n[spawn error] ${error.message}`;
      proc.exited = true;
      resolve();
    });
  });
  child.stdout.on('data', (chunk) => {
    log?.write(chunk);
    onStdout?.(chunk);
  });
  child.stderr.on('data', (chunk) => {
    log?.write(chunk);
    proc.stderrTail = (proc.stderrTail + chunk.toString()).slice(-4000);
    onStderr?.(chunk);
  });
  running.add(proc);
  return proc;
}

/** Resolves with the first stdout match of `pattern`; rejects if the process exits first or `timeoutMs` passes. */
export function waitForLine(proc, pattern, timeoutMs) {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk) => {
      buffer += chunk.toString();
      const match = pattern.exec(buffer);
      if (match) finish(() => resolve(match));
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`${proc.name}: no line matching ${pattern} within ${timeoutMs} ms`))), timeoutMs);
    const onExit = () =>
      finish(() => reject(new Error(`${proc.name} exited (code ${proc.exitCode}, signal ${proc.signal}) before it was ready.\n${proc.stderrTail.trim()}`)));
    const finish = (settle) => {
      clearTimeout(timer);
      proc.child.stdout.off('data', onData);
      proc.child.off('exit', onExit);
      settle();
    };
    proc.child.stdout.on('data', onData);
    proc.child.once('exit', onExit);
    if (proc.exited) onExit();
  });
}

function signalGroup(proc, signal) {
  try {
    process.kill(-proc.child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** SIGTERM to the process group, SIGKILL after `graceMs` if it is still there. */
export async function stopProcess(proc, graceMs = 3000) {
  running.delete(proc);
  if (proc.child.pid !== undefined) {
    if (!proc.exited) {
      signalGroup(proc, 'SIGTERM');
      let timer;
      const grace = new Promise((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([proc.done, grace]);
      clearTimeout(timer);
    }
    // Also sweeps grandchildren that outlived their parent.
    signalGroup(proc, 'SIGKILL');
  }
  await new Promise((resolve) => (proc.log ? proc.log.end(resolve) : resolve()));
}

/** Stops every process started through this module that is still running. */
export async function stopAll() {
  await Promise.all([...running].map((proc) => stopProcess(proc)));
}
