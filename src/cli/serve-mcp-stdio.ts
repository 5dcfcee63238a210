/**
 * What `mcp` runs once the MCP SDK is there: the store, the ledger's MCP
 * server on stdin/stdout, until the client closes stdin or a signal comes.
 * Nothing but the protocol may reach stdout.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { singleUser } from '../ledger/identity.js'
import { createMcpServer } from '../ledger/mcp-server.js'
import { openStore } from '../ledger/open-store.js'
import { LedgerService } from '../ledger/service.js'
import { PACKAGE_VERSION } from '../base/package-version.js'
import { EXIT_OK, type CommandContext } from './command.js'
import type { LedgerSettings } from './ledger-options.js'

export async function serveMcpStdio(settings: LedgerSettings, ctx: CommandContext): Promise<number> {
  const store = await openStore({ store: settings.store, org: settings.org, namespace: settings.namespace })
  const service = new LedgerService(store, { prices: settings.prices })
  const caller = singleUser(settings.org, settings.namespace)
  const server = createMcpServer(service, () => caller, PACKAGE_VERSION)
  const transport = new StdioServerTransport()
  const closed = new Promise<string>((resolve) => {
    transport.onclose = () => resolve('the client closed the connection')
    process.stdin.once('end', () => resolve('stdin ended'))
    process.once('SIGINT', () => resolve('SIGINT'))
    process.once('SIGTERM', () => resolve('SIGTERM'))
  })
  await server.connect(transport)
  ctx.note(`the run ledger's tools on stdio · store: ${store.kind} ${store.location} · org ${settings.org}, namespace ${settings.namespace}`)
  const reason = await closed
  await server.close()
  await store.close()
  ctx.note(`stopped: ${reason}`)
  return EXIT_OK
}
