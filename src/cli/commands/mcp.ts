/** `reagent-flow mcp`: the run ledger's tools for a coding agent, over stdio. */
import { installCommand, MCP_PACKAGES, POSTGRES_PACKAGES, packageSpecs, requirePackages } from '../../base/optional-dependency.js'
import type { Command } from '../command.js'
import { LEDGER_OPTIONS, ledgerSettings } from '../ledger-options.js'

export const mcpCommand: Command = {
  name: 'mcp',
  args: '',
  summary: "the run ledger's MCP tools (loom_run_begin, loom_run_complete, loom_run_get, loom_run_grade, loom_run_list) over stdio",
  details: [
    'For a coding agent\'s MCP configuration: { "command": "npx", "args": ["reagent-flow", "mcp"] }.',
    'It opens the store itself (the trace directory, or PostgreSQL with --store), as the single user of',
    '--org and --namespace. While `reagent-flow serve` holds the same directory, point the agent at its',
    'MCP endpoint (http://127.0.0.1:4319/mcp) instead. Logs go to stderr; stdout is the protocol.',
    `Needs an optional peer dependency of reagent-flow: ${installCommand(MCP_PACKAGES)} (and ${packageSpecs(POSTGRES_PACKAGES)} for PostgreSQL)`,
  ],
  options: LEDGER_OPTIONS,
  positionals: { min: 0, max: 0, names: '' },
  examples: ['reagent-flow mcp', 'reagent-flow mcp --store postgres://ledger@db.internal/ledger --namespace ci'],
  async run(input, ctx) {
    await requirePackages("the run ledger's MCP tools", MCP_PACKAGES)
    const settings = ledgerSettings(input, ctx)
    const { serveMcpStdio } = await import('../serve-mcp-stdio.js')
    return serveMcpStdio(settings, ctx)
  },
}
