/** `reagent-flow serve`: the run ledger over HTTP (and MCP at /mcp), until SIGINT or SIGTERM. */
import { installCommand, MCP_PACKAGES, POSTGRES_PACKAGES, packageSpecs, requirePackages, SERVER_PACKAGES } from '../../base/optional-dependency.js'
import { intOption, stringOption } from '../args.js'
import type { Command } from '../command.js'
import { LEDGER_OPTIONS, ledgerSettings } from '../ledger-options.js'

export const DEFAULT_PORT = 4319

export const serveCommand: Command = {
  name: 'serve',
  args: '',
  summary: 'the run ledger as a service: run.begin, run.complete, run.get, run.grade, run.list over HTTP and MCP',
  details: [
    'POST /v1/<operation> with a JSON body (the Loom run-operations fields); MCP (streamable HTTP) at /mcp.',
    'The store is the trace directory (every run session() writes there is a run) or PostgreSQL.',
    "Without --token-file the server is a single user's: loopback only, org and namespace from --org/--namespace.",
    'A token file maps bearer tokens to an org and namespace (and optionally an agent and a session_id):',
    '  { "tokens": [ { "name": "ci", "token": "<32+ random characters>", "org": "acme", "namespace": "ci" } ] }',
    'One line per request goes to stderr; SIGINT or SIGTERM stops it after the requests in flight.',
    `Needs optional peer dependencies of reagent-flow: ${installCommand([...SERVER_PACKAGES, ...MCP_PACKAGES])} (and ${packageSpecs(POSTGRES_PACKAGES)} for PostgreSQL)`,
  ],
  options: {
    ...LEDGER_OPTIONS,
    host: { type: 'string', value: '<address>', default: '127.0.0.1', description: 'the address to listen on; other than loopback needs --token-file' },
    port: { type: 'string', value: '<port>', default: String(DEFAULT_PORT), description: 'the port (0 picks a free one)' },
    'token-file': { type: 'string', value: '<file.json>', description: 'bearer tokens and the org, namespace, agent and session each may use' },
    view: { type: 'boolean', description: 'also serve the trace viewer of --dir at / (see reagent-flow view)' },
  },
  positionals: { min: 0, max: 0, names: '' },
  examples: [
    'reagent-flow serve',
    'reagent-flow serve --view',
    'reagent-flow serve --store postgres://ledger@db.internal/ledger --host 0.0.0.0 --token-file tokens.json',
    'curl -s localhost:4319/v1/run.list -d \'{"status": "failed"}\'',
  ],
  async run(input, ctx) {
    await requirePackages('the run ledger server', [...SERVER_PACKAGES, ...MCP_PACKAGES])
    const settings = ledgerSettings(input, ctx)
    const port = intOption(input, 'port', DEFAULT_PORT, 0, 65_535)
    const tokenFile = stringOption(input, 'token-file')
    const { serveLedger } = await import('../serve-ledger.js')
    const viewDir = input.options.view === true ? ctx.dir : undefined
    return serveLedger({ ...settings, port, host: stringOption(input, 'host') ?? '127.0.0.1', tokenFile, viewDir }, ctx)
  },
}
