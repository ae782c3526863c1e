/** @module Help texts of the `switchboard` command and its subcommands (pinned by cli tests). */

export const MAIN_HELP = `Usage: switchboard <command> [options]

An MCP gateway: one endpoint in front of many MCP servers.

Commands:
  serve       Serve the gateway over Streamable HTTP
  stdio       Serve the gateway to one host over stdin/stdout
  check       Connect to each upstream once and report what it offers
  questions   List, show and answer the questions upstreams asked (operator API)
  call        Call one tool through a running gateway, answering its questions here
  reload      Have a running gateway read its config file again and apply it

Options:
  -h, --help      Show this help (or: switchboard <command> --help)
  -v, --version   Print the version

Environment:
  SWITCHBOARD_LOG   Log level on stderr: debug, info (default), warn or error
`;

export const SERVE_HELP = `Usage: switchboard serve [--config FILE] [--listen HOST:PORT] [--watch]

Serves the gateway over Streamable HTTP at http://HOST:PORT/mcp (health: /healthz).
Prints "Switchboard listening on http://HOST:PORT/mcp" once every upstream has been tried.
SIGINT or SIGTERM closes every session and upstream, then exits 0.
SIGHUP (or \`switchboard reload\`) reads the config file again and applies it; a file
that does not validate is refused and the running config stays.

Options:
  -c, --config FILE        Config file (default: switchboard.yaml)
  -l, --listen HOST:PORT   Address to listen on, overriding the config's listen
                           (also [IPv6]:PORT or :PORT; port 0 picks a free port)
  -w, --watch              Reload the config whenever its file changes
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
or why it failed. Then the store: its type, where it is (a PostgreSQL URL without its
password), the server's version and the schema's, read without changing anything.
Exits 1 if any upstream or the store failed.

Options:
  -c, --config FILE   Config file (default: switchboard.yaml)
  -h, --help          Show this help
`;

export const QUESTIONS_HELP = `Usage: switchboard questions <list|show|answer|decline> [options]

Lists, shows and answers the questions upstreams asked (elicitation, sampling, roots)
through a running gateway's operator API.

  list                 Open questions (pending, delivered), newest first, as a table
  show ID              One question: its record, its form fields and its audit trail
  answer ID            Answer it: --content, --field or --text, else asked in the terminal
  decline ID           Decline it (--cancel: cancel it instead)

Options:
  --url URL            The gateway (default: $SWITCHBOARD_URL, else http://127.0.0.1:3939)
  --token TOKEN        The operator token, or an access token of the operators' OpenID provider (default: $SWITCHBOARD_CONSOLE_TOKEN)
  --operator NAME      Your name for the audit trail with the shared token (X-Switchboard-Operator; ignored with OpenID Connect)
  --json               Print the API's JSON instead of text
  -h, --help           Show this help

list:
  --state STATE        Only this state (repeatable or comma-separated): pending, delivered,
                       answered, declined, cancelled, expired, abandoned
  --all                Every state
  --upstream NAME      Only this upstream's questions
  --tool NAME          Only questions asked by this tool's calls
  --limit N            At most N (1 to 1000; default 100)

answer:
  --content JSON       The form's content, e.g. '{"ticket":"CHG-2291"}'
  --field NAME=VALUE   One field (repeatable), read as its schema says: numbers, y/n,
                       a choice by value or number, a multi-select as a comma list
  --text REPLY         A sampling question's reply (sent as the assistant's text)
  --result JSON        The result as is (a roots answer: '{"roots":[{"uri":"file:///srv"}]}')

decline:
  --cancel             Answer cancel instead of decline

Exit codes: 0 done, 1 the gateway refused (token, answer, unknown id, already settled),
2 usage error, 3 cannot connect.
`;

export const CALL_HELP = `Usage: switchboard call TOOL [JSON-ARGS] [options]

Calls one tool through a running gateway as an MCP host (Streamable HTTP, 2025-11-25,
declaring form elicitation). A question the tool asks is shown here, one prompt per field,
then accept, decline or cancel. Progress goes to stderr with the form; the tool's result
goes to stdout. When stdin is not a terminal, answers are read from it line by line.

Arguments:
  TOOL                 The tool's name as the gateway lists it
  JSON-ARGS            Its arguments as a JSON object (default: {})

Options:
  --url URL            The gateway's MCP endpoint (default: $SWITCHBOARD_URL, else
                       http://127.0.0.1:3939/mcp; a URL without a path gets /mcp)
  --no-input           Answer cancel to every question without asking
  --json               Print the tool's result as JSON
  -h, --help           Show this help

Exit codes: 0 the tool succeeded, 1 the tool reported an error or the call failed,
2 usage error, 3 cannot connect.
`;

export const RELOAD_HELP = `Usage: switchboard reload [--url URL] [--token TOKEN] [--json]

Asks a running gateway (serve) to read its config file again and apply it, as SIGHUP
does, through the operator API (POST /api/config/reload), and prints what changed:
upstreams added, removed and reconnected, and settings that wait for a restart.
A file that does not validate is refused with its file:line error; the gateway keeps
running its current config. Exit code 0 when applied or unchanged, 1 when refused,
3 when the gateway cannot be reached.

Options:
  --url URL       The gateway's base URL (default: $SWITCHBOARD_URL or http://127.0.0.1:3939)
  --token TOKEN   The operator token (default: $SWITCHBOARD_CONSOLE_TOKEN)
  --operator NAME Your name for the gateway's log
  --json          Print the gateway's answer as JSON
  -h, --help      Show this help
`;
