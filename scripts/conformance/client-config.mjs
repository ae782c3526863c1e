/** @module scripts/conformance/client-config: the gateway config a client scenario runs with: the suite's test server as the one upstream. */

/**
 * The Client ID Metadata Document URL the suite's auth/basic-cimd scenario expects as client id (its authorization
 * server never fetches it, so any https URL with a path would do elsewhere).
 */
export const CONFORMANCE_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/**
 * YAML for `switchboard stdio`: the scenario's server (`serverUrl`, given by the suite) as the single HTTP
 * upstream, with OAuth enabled (an upstream that never challenges is unaffected). `context` is the suite's
 * MCP_CONFORMANCE_CONTEXT (parsed), which auth scenarios use to hand over pre-registered client credentials
 * (`client_id`, `client_secret`). JSON strings are valid YAML scalars.
 */
export function clientScenarioConfig(serverUrl, context = {}) {
  const auth = ['      type: oauth', `      clientMetadataUrl: ${JSON.stringify(CONFORMANCE_CLIENT_METADATA_URL)}`];
  if (typeof context.client_id === 'string') auth.push(`      clientId: ${JSON.stringify(context.client_id)}`);
  if (typeof context.client_secret === 'string') auth.push(`      clientSecret: ${JSON.stringify(context.client_secret)}`);
  return [
    '# Written by scripts/conformance/client-host.mjs: the scenario server as the single upstream.',
    'upstreams:',
    '  scenario:',
    `    url: ${JSON.stringify(serverUrl)}`,
    '    auth:',
    ...auth,
    '',
  ].join('\n');
}
