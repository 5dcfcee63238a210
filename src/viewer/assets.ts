/**
 * The page's bundle (script and styles), built by `npm run build` with
 * esbuild into `dist/src/viewer/client/` and shipped in the package: nothing
 * is built at install or at run time. Two bundles: `viewer` (the trace
 * directory's viewer, also inlined in static reports) and `ledger` (the
 * team viewer, with the charting library its Trends page draws with), so
 * reports do not carry the charts. Each is read once per process.
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

export type ViewerBundle = 'viewer' | 'ledger'

const cached = new Map<ViewerBundle, ViewerAssets>()

/** The bundle; a `ReagentError` naming the missing file when the package was not built. */
export function viewerAssets(bundle: ViewerBundle = 'viewer'): ViewerAssets {
  const held = cached.get(bundle)
  if (held !== undefined) return held
  const folder = CANDIDATES.find((candidate) => existsSync(join(candidate, `${bundle}.js`)))
  if (folder === undefined) {
    throw new ReagentError(
      `The viewer's page is not built: ${join(CANDIDATES[1]!, `${bundle}.js`)} is missing. Run "npm run build" in the reagent-flow checkout.`,
    )
  }
  const assets = { script: readFileSync(join(folder, `${bundle}.js`), 'utf8'), styles: readFileSync(join(folder, `${bundle}.css`), 'utf8') }
  cached.set(bundle, assets)
  return assets
}
