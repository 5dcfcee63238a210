/** The viewer on the one HTTP server, in this process, over a directory: what `reagent-flow view` starts. */
import { onTestFinished } from 'vitest'
import { singleUser } from '../../src/ledger/identity.js'
import type { TokenRegistry } from '../../src/server/caller.js'
import { startHttpServer, type RunningServer } from '../../src/server/http-server.js'
import { loadPriceTable } from '../../src/storage/price-file.js'
import { TraceIndex } from '../../src/viewer/trace-index.js'
import type { ComparisonPayload } from '../../src/viewer/types.js'
import { viewerRoutes } from '../../src/viewer/viewer-routes.js'

export interface TestViewer {
  server: RunningServer
  index: TraceIndex
  url: string
}

export async function startViewer(
  dir: string,
  options: { tokens?: TokenRegistry; log?: string[]; cleanup?: boolean; comparison?: () => ComparisonPayload } = {},
): Promise<TestViewer> {
  const index = new TraceIndex({ dir, prices: loadPriceTable(), watch: true, rescanMs: 200 })
  const owner = singleUser()
  const server = await startHttpServer({
    port: 0,
    tokens: options.tokens,
    owner,
    groups: [viewerRoutes({ index, owner, comparison: options.comparison })],
    log: (line) => options.log?.push(line),
    graceMs: 200,
  })
  if (options.cleanup !== false) onTestFinished(() => server.close())
  return { server, index, url: `${server.url}/` }
}
