/**
 * @module A gateway instance in a process of its own, for tests that kill it as `kill -9` would: it joins the instances
 * of a schema (argv: url, schema, id, deadAfterMs), prints `joined`, and heartbeats until it is killed.
 */

import { joinInstances } from '../pg-instances.js';

const [url, schema, id, deadAfter] = process.argv.slice(2);
if (!url || !schema || !id || !deadAfter) throw new Error('usage: instance-child URL SCHEMA ID DEAD_AFTER_MS');
await joinInstances({ url, schema, id, deadAfterMs: Number(deadAfter) });
process.stdout.write('joined\n');
// The heartbeat timer does not hold the process open: this does, until the test kills it.
setInterval(() => undefined, 60_000);
