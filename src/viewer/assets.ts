/**
 * The page's bundle (script and styles), built by `npm run build` with
 * esbuild into `dist/src/viewer/client/` and shipped in the package: nothing
 * is built at install or at run time. Read once per process.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ReagentError } from '../errors/index.js'

export interface ViewerAssets {
  script: string
  styles: string
}

const here = dirname(fileURLToPath(import.meta.url))
// Built: this code is bundled into a file of dist/src/<folder>/ (scripts/bundle.ts), beside dist/src/viewer/client/.
// Sources run by tests (src/viewer/): the build output of the checkout.
const CANDIDATES = [join(here, '..', 'viewer', 'client'), join(here, '..', '..', 'dist', 'src', 'viewer', 'client')]

let cached: ViewerAssets | undefined

/** The bundle; a `ReagentError` naming the missing file when the package was not built. */
export function viewerAssets(): ViewerAssets {
  if (cached !== undefined) return cached
  const folder = CANDIDATES.find((candidate) => existsSync(join(candidate, 'viewer.js')))
  if (folder === undefined) {
    throw new ReagentError(`The viewer's page is not built: ${join(CANDIDATES[1]!, 'viewer.js')} is missing. Run "npm run build" in the reagent-flow checkout.`)
  }
  cached = { script: readFileSync(join(folder, 'viewer.js'), 'utf8'), styles: readFileSync(join(folder, 'viewer.css'), 'utf8') }
  return cached
}
