import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { decideAccess, OPEN_POLICY, policyRestricts } from './policy.js';
import type { PolicySettings } from './policy.js';
import type { Principal } from './principal.js';

const ada: Principal = { issuer: 'https://id.example', subject: 'ada', groups: ['ops'], scopes: ['mcp:tools'] };
const bob: Principal = { issuer: 'https://id.example', subject: 'bob', groups: ['dev'], scopes: ['mcp:tools', 'mcp:admin'] };
const tool = (name: string) => ({ kind: 'tool' as const, name });

describe('access policy', () => {
  it('allows everything without rules, and says it restricts nothing', () => {
    assert.deepEqual(decideAccess(OPEN_POLICY, ada, tool('desk_restart_service')), { allowed: true });
    assert.equal(policyRestricts(OPEN_POLICY), false);
  });

  it('denies a tool by glob to the group it names, and only to it', () => {
    const policy: PolicySettings = { default: 'allow', rules: [{ effect: 'deny', groups: ['dev'], tools: ['*restart_service'] }] };
    assert.equal(decideAccess(policy, bob, tool('desk_restart_service')).allowed, false);
    assert.equal(decideAccess(policy, ada, tool('desk_restart_service')).allowed, true);
    assert.equal(decideAccess(policy, bob, tool('desk_status')).allowed, true);
    assert.equal(policyRestricts(policy), true);
  });

  it('lets deny win over an allow that covers the same target, whatever the order', () => {
    const policy: PolicySettings = {
      default: 'deny',
      rules: [
        { effect: 'allow', tools: ['desk_*'] },
        { effect: 'deny', subjects: ['b*'], tools: ['desk_restart_service'] },
      ],
    };
    const refused = decideAccess(policy, bob, tool('desk_restart_service'));
    assert.equal(refused.allowed, false);
    assert.match(refused.allowed ? '' : refused.reason, /policy\.rules\[1\] denies tool desk_restart_service/);
    assert.equal(decideAccess(policy, ada, tool('desk_restart_service')).allowed, true);
  });

  it('with default deny, refuses what no allow rule covers and names why', () => {
    const policy: PolicySettings = { default: 'deny', rules: [{ effect: 'allow', scopes: ['mcp:admin'], tools: ['*'] }] };
    assert.equal(decideAccess(policy, bob, tool('anything')).allowed, true);
    const refused = decideAccess(policy, ada, tool('anything'));
    assert.equal(refused.allowed, false);
    assert.match(refused.allowed ? '' : refused.reason, /policy\.default is deny/);
  });

  it('needs every scope a rule lists, and any one of its groups', () => {
    const policy: PolicySettings = { default: 'deny', rules: [{ effect: 'allow', groups: ['ops', 'sre'], scopes: ['mcp:tools', 'mcp:admin'] }] };
    assert.equal(decideAccess(policy, ada, tool('x')).allowed, false, 'ada lacks mcp:admin');
    assert.equal(decideAccess({ ...policy, rules: [{ effect: 'allow', groups: ['ops', 'sre'], scopes: ['mcp:tools'] }] }, ada, tool('x')).allowed, true);
  });

  it('applies a rule that lists one kind of target to that kind only', () => {
    const policy: PolicySettings = { default: 'allow', rules: [{ effect: 'deny', resources: ['file:///secrets/*'] }] };
    assert.equal(decideAccess(policy, ada, { kind: 'resource', name: 'file:///secrets/key' }).allowed, false);
    assert.equal(decideAccess(policy, ada, { kind: 'tool', name: 'file:///secrets/key' }).allowed, true);
    assert.equal(decideAccess(policy, ada, { kind: 'prompt', name: 'file:///secrets/key' }).allowed, true);
  });
});
