/** @module Tests of config errors: one line that names the file, the line and the key, and the parts a ConfigError exposes. */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, parseConfigText } from './load.js';
import { assertConfigError } from './testing/assert-config-error.js';
import { yaml } from './testing/config-text.js';

const BAD_CASES: { name: string; text: string; message: string }[] = [
  {
    name: 'wrong enum value',
    text: yaml('listen: 127.0.0.1:3939', 'upstreams:', '  desk:', '    command: node', '', '    # how connections are shared', '    sharing: sometimes'),
    message: 'bad.yaml:7: upstreams.desk.sharing: must be one of per-session, shared (got "sometimes")',
  },
  {
    name: 'empty enum value',
    text: yaml('upstreams:', '  desk:', '    command: node', '    sharing:'),
    message: 'bad.yaml:4: upstreams.desk.sharing: must be one of per-session, shared (got an empty value)',
  },
  {
    name: 'unknown key with a close match',
    text: yaml('upstreams:', '  desk:', '    command: node', '    sharng: shared'),
    message: 'bad.yaml:4: upstreams.desk.sharng: unknown key (did you mean sharing?)',
  },
  {
    name: 'unknown top-level key without a close match',
    text: yaml('upstreams:', '  desk: { command: node }', 'frobnicate: true'),
    message: 'bad.yaml:3: frobnicate: unknown key (allowed: listen, upstreams, naming, http, pageSize, retry, questions, console, auth, policy, store, cluster, requestState, log, tracing, composites, notify)',
  },
  {
    name: 'missing upstreams',
    text: yaml('# no upstreams at all', 'listen: 127.0.0.1:3939'),
    message: 'bad.yaml:2: upstreams: is required',
  },
  {
    name: 'empty upstreams map',
    text: yaml('upstreams: {}'),
    message: 'bad.yaml:1: upstreams: must list at least one upstream',
  },
  {
    name: 'upstreams is a list',
    text: yaml('upstreams:', '  - command: node'),
    message: 'bad.yaml:1: upstreams: must be a map (got a list)',
  },
  {
    name: 'empty file',
    text: yaml('# nothing here'),
    message: 'bad.yaml:1: the file is empty (it needs at least an upstreams: map)',
  },
  {
    name: 'bad upstream name',
    text: yaml('upstreams:', '  desk: { command: node }', '  "my desk": { command: node }'),
    message: 'bad.yaml:3: upstreams."my desk": is not a valid upstream name (letters, digits, _ and -, starting with a letter or digit)',
  },
  {
    name: 'url with a scheme other than http(s)',
    text: yaml('upstreams:', '  remote:', '    url: ftp://127.0.0.1/mcp'),
    message: 'bad.yaml:3: upstreams.remote.url: must be an http:// or https:// URL (got "ftp://127.0.0.1/mcp")',
  },
  {
    name: 'url that is not a URL',
    text: yaml('upstreams:', '  remote:', '    url: localhost:4000'),
    message: 'bad.yaml:3: upstreams.remote.url: must be an http:// or https:// URL (got "localhost:4000")',
  },
  {
    name: 'command and url together',
    text: yaml('upstreams:', '  desk: { command: node }', '  both:', '    command: node', '    url: http://127.0.0.1:4000/mcp'),
    message: 'bad.yaml:3: upstreams.both: has both command and url (use command for a stdio upstream or url for an HTTP one)',
  },
  {
    name: 'neither command nor url',
    text: yaml('upstreams:', '  desk:', '    sharing: shared'),
    message: 'bad.yaml:2: upstreams.desk: needs command (stdio) or url (streamable-http, sse)',
  },
  {
    name: 'lists per-session on a shared upstream',
    text: yaml('upstreams:', '  desk:', '    command: node', '    sharing: shared', '    lists: per-session'),
    message: 'bad.yaml:5: upstreams.desk.lists: only applies with sharing: per-session (a shared upstream has one session, whose lists every host sees)',
  },
  {
    name: 'transport sse with command',
    text: yaml('upstreams:', '  desk:', '    command: node', '    transport: sse'),
    message: 'bad.yaml:4: upstreams.desk.transport: is sse, which needs url instead of command',
  },
  {
    name: 'transport stdio with url',
    text: yaml('upstreams:', '  remote:', '    url: http://127.0.0.1:4000/mcp', '    transport: stdio'),
    message: 'bad.yaml:4: upstreams.remote.transport: is stdio, which needs command instead of url',
  },
  {
    name: 'unknown transport',
    text: yaml('upstreams:', '  remote:', '    url: http://127.0.0.1:4000/mcp', '    transport: websocket'),
    message: 'bad.yaml:4: upstreams.remote.transport: must be one of stdio, streamable-http, sse (got "websocket")',
  },
  {
    name: 'headers on a stdio upstream',
    text: yaml('upstreams:', '  desk:', '    command: node', '    headers: { X-Key: abc }'),
    message: 'bad.yaml:4: upstreams.desk.headers: only applies to HTTP upstreams (with url)',
  },
  {
    name: 'cwd on an HTTP upstream',
    text: yaml('upstreams:', '  remote:', '    url: http://127.0.0.1:4000/mcp', '    cwd: .'),
    message: 'bad.yaml:4: upstreams.remote.cwd: only applies to stdio upstreams (with command)',
  },
  {
    name: 'auth on a stdio upstream',
    text: yaml('upstreams:', '  desk:', '    command: node', '    auth: { type: oauth }'),
    message: 'bad.yaml:4: upstreams.desk.auth: only applies to HTTP upstreams (with url)',
  },
  {
    name: 'auth on a legacy HTTP+SSE upstream',
    text: yaml('upstreams:', '  old:', '    url: http://127.0.0.1:4001/sse', '    transport: sse', '    auth: { type: oauth }'),
    message: 'bad.yaml:5: upstreams.old.auth: only applies to streamable-http upstreams (legacy HTTP+SSE servers predate MCP authorization)',
  },
  {
    name: 'auth of an unknown type',
    text: yaml('upstreams:', '  remote:', '    url: http://127.0.0.1:4000/mcp', '    auth:', '      type: basic'),
    message: 'bad.yaml:5: upstreams.remote.auth.type: must be one of oauth (got "basic")',
  },
  {
    name: 'auth without a type',
    text: yaml('upstreams:', '  remote:', '    url: http://127.0.0.1:4000/mcp', '    auth:', '      clientId: abc'),
    message: 'bad.yaml:4: upstreams.remote.auth.type: must be one of oauth (got an empty value)',
  },
  {
    name: 'client secret without a client id',
    text: yaml('upstreams:', '  remote:', '    url: http://127.0.0.1:4000/mcp', '    auth:', '      type: oauth', '      clientSecret: s'),
    message: 'bad.yaml:6: upstreams.remote.auth.clientSecret: needs clientId (a secret belongs to a pre-registered client)',
  },
  {
    name: 'client metadata URL that is not https',
    text: yaml('upstreams:', '  remote:', '    url: http://127.0.0.1:4000/mcp', '    auth:', '      type: oauth', '      clientMetadataUrl: http://example.test/client.json'),
    message: 'bad.yaml:6: upstreams.remote.auth.clientMetadataUrl: must be an https:// URL with a path (got "http://example.test/client.json")',
  },
  {
    name: 'bad duration string',
    text: yaml('upstreams:', '  desk:', '    command: node', '    timeout: 5 minutes'),
    message: 'bad.yaml:4: upstreams.desk.timeout: must be a duration like 500ms, 30s, 5m or 1h (got "5 minutes")',
  },
  {
    name: 'fractional milliseconds',
    text: yaml('upstreams:', '  desk:', '    command: node', '    connectTimeout: 1.5'),
    message: 'bad.yaml:4: upstreams.desk.connectTimeout: must be a whole number of milliseconds from 0 to 2147483647 (got 1.5)',
  },
  {
    name: 'zero request timeout',
    text: yaml('upstreams:', '  desk:', '    command: node', '    timeout: 0s'),
    message: 'bad.yaml:4: upstreams.desk.timeout: must be more than 0 (got "0s")',
  },
  {
    name: 'duration beyond what timers can wait',
    text: yaml('http:', '  sessionIdleTimeout: 1000h', 'upstreams:', '  desk: { command: node }'),
    message: 'bad.yaml:2: http.sessionIdleTimeout: must be at most 2147483647ms, about 24.8 days (got "1000h")',
  },
  {
    name: 'bad size',
    text: yaml('http:', '  maxBodySize: 4 megs', 'upstreams:', '  desk: { command: node }'),
    message: 'bad.yaml:2: http.maxBodySize: must be a size like 512kb, 4mb or 1gb (got "4 megs")',
  },
  {
    name: 'retry delays the wrong way round',
    text: yaml('upstreams:', '  desk: { command: node }', 'retry:', '  initialDelay: 2m', '  maxDelay: 1m'),
    message: 'bad.yaml:4: retry.initialDelay: must not be longer than maxDelay (120000ms > 60000ms)',
  },
  {
    name: 'listen without a port',
    text: yaml('listen: localhost', 'upstreams:', '  desk: { command: node }'),
    message: 'bad.yaml:1: listen: invalid listen address "localhost": no port (use HOST:PORT, [IPv6]:PORT or :PORT)',
  },
  {
    name: 'listen port out of range',
    text: yaml('upstreams:', '  desk: { command: node }', 'listen: 0.0.0.0:70000'),
    message: 'bad.yaml:3: listen: invalid listen address "0.0.0.0:70000": port must be a number from 0 to 65535 (got "70000")',
  },
  {
    name: 'YAML syntax error',
    text: yaml('upstreams:', '  desk:', '    command: node', '    args: [a, b', 'pageSize: 10'),
    message: 'bad.yaml:5: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]',
  },
  {
    name: 'two YAML documents',
    text: yaml('upstreams:', '  desk: { command: node }', '---', 'pageSize: 10'),
    message: 'bad.yaml:3: invalid YAML: the file must hold a single YAML document (found another after ---)',
  },
  {
    name: 'unquoted IPv6 listen address',
    text: yaml('listen: [::1]:3939', 'upstreams:', '  desk: { command: node }'),
    message: 'bad.yaml:1: invalid YAML: Unexpected scalar at node end (quote an IPv6 listen address: "[::1]:3939")',
  },
  {
    name: 'a scalar instead of a map',
    text: yaml('just some text'),
    message: 'bad.yaml:1: (top level): must be a map (got "just some text")',
  },
  {
    name: 'duplicate key',
    text: yaml('upstreams:', '  desk: { command: node }', '  desk: { command: node }'),
    message: 'bad.yaml:3: invalid YAML: Map keys must be unique',
  },
  {
    name: 'unset ${VAR} in a header',
    text: yaml('upstreams:', '  remote:', '    url: http://127.0.0.1:4000/mcp', '    headers:', '      Authorization: Bearer ${NO_SUCH_TOKEN}'),
    message: 'bad.yaml:5: upstreams.remote.headers.Authorization: uses environment variable NO_SUCH_TOKEN, which is not set',
  },
  {
    name: 'unset ${VAR} in a url',
    text: yaml('upstreams:', '  remote:', '    url: http://${NO_SUCH_HOST}/mcp'),
    message: 'bad.yaml:3: upstreams.remote.url: uses environment variable NO_SUCH_HOST, which is not set',
  },
  {
    name: 'malformed ${...} in args',
    text: yaml('upstreams:', '  desk:', '    command: node', '    args:', '      - ok', '      - ${not a name}'),
    message: 'bad.yaml:6: upstreams.desk.args[1]: has a bad variable reference "${not a name}" (expected ${NAME}, NAME of letters, digits and _)',
  },
  {
    name: 'number where a string is needed',
    text: yaml('upstreams:', '  desk:', '    command: node', '    env: { PORT: 8080 }'),
    message: 'bad.yaml:4: upstreams.desk.env.PORT: must be a string (got 8080; quote it: "8080")',
  },
  {
    name: 'separator with a character tool names do not allow',
    text: yaml('naming:', '  separator: "::"', 'upstreams:', '  desk: { command: node }'),
    message: 'bad.yaml:2: naming.separator: must be one or more of the characters _ - . (got "::")',
  },
  {
    name: 'empty separator',
    text: yaml('naming:', '  separator: ""', 'upstreams:', '  desk: { command: node }'),
    message: 'bad.yaml:2: naming.separator: must be one or more of the characters _ - . (got "")',
  },
  {
    name: 'rename onto a name another allowed tool keeps',
    text: yaml('upstreams:', '  desk:', '    command: node', '    tools:', '      allow: [search, find]', '      rename:', '        search: find'),
    message: 'bad.yaml:7: upstreams.desk.tools.rename.search: "find" is already the exposed name of tool "find"',
  },
  {
    name: 'two renames onto the same name',
    text: yaml('upstreams:', '  desk:', '    command: node', '    tools:', '      rename:', '        search: lookup', '        find: lookup'),
    message: 'bad.yaml:7: upstreams.desk.tools.rename.find: "lookup" is already the exposed name of tool "search"',
  },
  {
    name: 'rename target that is not a valid tool name',
    text: yaml('upstreams:', '  desk:', '    command: node', '    tools:', '      rename: { search: "look up" }'),
    message: 'bad.yaml:5: upstreams.desk.tools.rename.search: must be a tool name of 1 to 128 letters, digits, _, - or . (got "look up")',
  },
  {
    name: 'rename of a tool outside allow',
    text: yaml('upstreams:', '  desk:', '    command: node', '    tools:', '      allow: [search]', '      rename: { find: lookup }'),
    message: 'bad.yaml:6: upstreams.desk.tools.rename.find: renames "find", which is not in tools.allow',
  },
  {
    name: 'tool both allowed and denied',
    text: yaml('upstreams:', '  desk:', '    command: node', '    tools:', '      allow: [search]', '      deny:', '        - search'),
    message: 'bad.yaml:7: upstreams.desk.tools.deny[0]: "search" is also in tools.allow (list it in one or the other)',
  },
  {
    name: 'pageSize below 1',
    text: yaml('upstreams:', '  desk: { command: node }', 'pageSize: 0'),
    message: 'bad.yaml:3: pageSize: must be at least 1 (got 0)',
  },
  {
    name: 'the earliest problem in the file wins',
    text: yaml('upstreams:', '  desk:', '    command: node', '    sharing: sometimes', 'listen: nowhere'),
    message: 'bad.yaml:4: upstreams.desk.sharing: must be one of per-session, shared (got "sometimes")',
  },
  {
    name: 'a problem inside an alias points at the alias',
    text: yaml('upstreams:', '  desk: &base { command: node, sharing: sometimes }', '  copy: *base'),
    message: 'bad.yaml:2: upstreams.desk.sharing: must be one of per-session, shared (got "sometimes")',
  },
];

describe('parseConfigText: bad configs give one line that points at the problem', () => {
  for (const { name, text, message } of BAD_CASES) {
    test(name, () => assertConfigError(() => parseConfigText(text, 'bad.yaml', { env: {} }), message));
  }
});

describe('parseConfigText: the error', () => {
  test('ConfigError exposes its parts', () => {
    const error = (() => {
      try {
        parseConfigText(yaml('upstreams:', '  desk: { command: node, sharing: x }'), 'conf/sb.yaml', { env: {} });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    assert.ok(error instanceof ConfigError);
    assert.equal(error.name, 'ConfigError');
    assert.equal(error.file, 'conf/sb.yaml');
    assert.equal(error.line, 2);
    assert.equal(error.path, 'upstreams.desk.sharing');
    assert.equal(error.reason, 'must be one of per-session, shared (got "x")');
  });
});
