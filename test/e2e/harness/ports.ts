/** @module e2e/harness/ports: a loopback port free right now, for a server that must come back at the same address. */
import { createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that nothing listens on (the OS picks it; it is released before this resolves). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
