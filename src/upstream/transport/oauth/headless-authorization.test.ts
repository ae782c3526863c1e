/** @module Tests of the headless authorization step against a scripted node:http authorization endpoint. */

import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';

import { authorizeHeadless, HeadlessAuthorizationError } from './headless-authorization.js';

const REDIRECT = 'http://127.0.0.1/oauth/callback';
let reply: (path: string, res: ServerResponse) => void = () => undefined;
let origin = '';
const server = createServer((req, res) => reply(req.url ?? '/', res));

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const go = (location: string) => (_path: string, res: ServerResponse) => {
  res.writeHead(302, { location });
  res.end();
};
const run = () => authorizeHeadless(new URL(`${origin}/authorize?x=1`), REDIRECT, 'st', fetch);

function rejected(needsPerson: boolean, message: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof HeadlessAuthorizationError);
    assert.equal(error.needsPerson, needsPerson);
    assert.equal(error.authorizationUrl, `${origin}/authorize?x=1`);
    assert.match(error.message, message);
    return true;
  };
}

test('the code and iss of the redirect to the redirect URI are taken, after relative hops', async () => {
  reply = (path, res) => (path.startsWith('/authorize') ? go('/consent')(path, res) : go(`${REDIRECT}?code=c1&state=st&iss=${encodeURIComponent(origin)}`)(path, res));
  assert.deepEqual(await run(), { code: 'c1', iss: origin });
});

test('a redirect URI with a different path or port is just another hop, not the callback', async () => {
  let hops = 0;
  reply = (path, res) => {
    hops += 1;
    if (hops === 1) return go(`http://127.0.0.1:${new URL(origin).port}/oauth/callback?code=wrong&state=st`)(path, res);
    go(`${REDIRECT}?code=right&state=st`)(path, res);
  };
  assert.equal((await run()).code, 'right');
});

test('a page instead of a redirect needs a person', async () => {
  reply = (_path, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<form>sign in</form>');
  };
  await assert.rejects(run(), rejected(true, /^the authorization server shows a page instead of redirecting back/));
});

test('an error status, a non-http redirect, endless redirects and a callback without code are failures', async () => {
  reply = (_path, res) => {
    res.writeHead(500);
    res.end();
  };
  await assert.rejects(run(), rejected(false, /HTTP 500/));
  reply = go('myapp://callback?code=x');
  await assert.rejects(run(), rejected(true, /myapp: URL/));
  reply = go('/again');
  await assert.rejects(run(), rejected(false, /more than 10 times/));
  reply = go(`${REDIRECT}?state=st`);
  await assert.rejects(run(), rejected(false, /neither a code nor an error/));
});

test('the state must be ours, even on an error redirect', async () => {
  reply = go(`${REDIRECT}?code=c&state=other`);
  await assert.rejects(run(), rejected(false, /state that is not ours/));
  reply = go(`${REDIRECT}?error=interaction_required&state=st`);
  await assert.rejects(run(), rejected(true, /interaction_required/));
});
