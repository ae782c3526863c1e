/** @module Protected Resource Metadata: the document, its URL and the paths it is served at. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { protectedResourceMetadata, resourceMetadataPaths, resourceMetadataUrl } from './resource-metadata.js';

test('the metadata URL inserts the well-known prefix before the resource path (RFC 9728 §3.1)', () => {
  assert.equal(resourceMetadataUrl('https://h.example/mcp'), 'https://h.example/.well-known/oauth-protected-resource/mcp');
  assert.equal(resourceMetadataUrl('http://127.0.0.1:8080/sb/mcp'), 'http://127.0.0.1:8080/.well-known/oauth-protected-resource/sb/mcp');
  assert.equal(resourceMetadataUrl('https://h.example/'), 'https://h.example/.well-known/oauth-protected-resource');
});

test('the document is served at the suffixed path and at the bare prefix, once each', () => {
  assert.deepEqual(resourceMetadataPaths('https://h.example/mcp'), ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']);
  assert.deepEqual(resourceMetadataPaths('https://h.example/'), ['/.well-known/oauth-protected-resource']);
});

test('the document names the resource, its one authorization server, the header method and the scopes when any', () => {
  assert.deepEqual(protectedResourceMetadata({ resource: 'https://h.example/mcp', issuer: 'https://as.example', scopes: ['mcp:tools'] }), {
    resource: 'https://h.example/mcp',
    authorization_servers: ['https://as.example'],
    bearer_methods_supported: ['header'],
    scopes_supported: ['mcp:tools'],
    resource_name: 'Switchboard',
  });
  assert.equal('scopes_supported' in protectedResourceMetadata({ resource: 'https://h.example/mcp', issuer: 'https://as.example', scopes: [] }), false);
});
