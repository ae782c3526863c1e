/** @module Help texts of the `switchboard` command and its subcommands (pinned by cli tests). */

export const MAIN_HELP = `Usage: switchboard <command> [options]

An MCP gateway: one endpoint in front of many MCP servers.

Commands:
  serve     Serve the gateway over Streamable HTTP
  stdio     Serve the gateway to one host over stdin/stdout
  check     Connect to each upstream once and report what it offers

Options:
  -h, --help      Show this help (or: switchboard <command> --help)
  -v, --version   Print the version

Environment:
  SWITCHBOARD_LOG   Log level on stderr: debug, info (default), warn or error
`;

export const SERVE_HELP = `Usage: switchboard serve [--config FILE] [--listen HOST:PORT]

Serves the gateway over Streamable HTTP at http://HOST:PORT/mcp (health: /healthz).
Prints "Switchboard listening on http://HOST:PORT/mcp" once every upstream has been tried.
SIGINT or SIGTERM closes every session and upstream, then exits 0.

Options:
  -c, --config FILE        Config file (default: switchboard.yaml)
  -l, --listen HOST:PORT   Address to listen on, overriding the config's listen
                           (also [IPv6]:PORT or :PORT; port 0 picks a free port)
  -h, --help               Show this help
`;

export const STDIO_HELP = `Usage: switchboard stdio [--config FILE]

Serves the gateway to exactly one host over stdin/stdout (newline-delimited JSON-RPC).
Only protocol messages go to stdout; logs go to stderr. Ends when stdin closes.

Options:
  -c, --config FILE   Config file (default: switchboard.yaml)
  -h, --help          Show this help
`;

export const CHECK_HELP = `Usage: switchboard check [--config FILE]

Connects to each configured upstream once and prints its transport, negotiated revision,
capabilities and how many tools, resources, resource templates and prompts it offers,
or why it failed. Exits 1 if any upstream failed.

Options:
  -c, --config FILE   Config file (default: switchboard.yaml)
  -h, --help          Show this help
`;
