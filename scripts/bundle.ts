/**
 * The package's JavaScript: each entry point of package.json's "exports",
 * and the command line, bundled by esbuild into the file tsc used to write
 * (`dist/src/entries/<name>.js`, `dist/src/cli/index.js`), with the code two
 * of them share split into chunks (`dist/src/chunks/`). A cold
 * `import('reagent-flow')` then reads a handful of files instead of 170
 * modules, and code only some runs use (the ledger reporter, the servers,
 * each command) is its own chunk, read by an `import()` on first use
 * (docs/decisions/062-light-package.md).
 *
 * Dependencies stay packages (npm installs them; nothing of theirs is copied
 * in): ajv and diff are required on first use, the optional peers are
 * imported by the features that need them. tsc writes the declarations
 * beside these files (tsconfig.build.json), so the types are what they were.
 *
 * The viewer's page (src/viewer/client/) is bundled here too, for browsers,
 * into `dist/src/viewer/client/viewer.js` and `viewer.css`, and the team
 * viewer's (with uPlot) into `ledger.js` and `ledger.css`.
 *
 * Run by `npm run build`, after tsc.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { build, type BuildOptions, type Plugin } from 'esbuild'

const ROOT = join(import.meta.dirname, '..')
const UPLOT_VERSION = (JSON.parse(readFileSync(join(ROOT, 'node_modules/uplot/package.json'), 'utf8')) as { version: string }).version
const entries = readdirSync(join(ROOT, 'src/entries'))
  .filter((file) => file.endsWith('.ts'))
  .map((file) => `src/entries/${file}`)

const result = await build({
  absWorkingDir: ROOT,
  entryPoints: [...entries, 'src/cli/index.ts'],
  outbase: '.',
  outdir: 'dist',
  chunkNames: 'src/chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Every package stays an import of it: the dependencies, the optional peers, vitest.
  packages: 'external',
  // package.json's "sideEffects" names the built files, not the sources esbuild reads:
  // were it obeyed here, `import '../vitest/register.js'` would be dropped.
  ignoreAnnotations: true,
  sourcemap: 'linked',
  sourcesContent: true,
  legalComments: 'inline',
  logLevel: 'warning',
  metafile: true,
})

const files = Object.keys(result.metafile.outputs).filter((file) => file.endsWith('.js'))
// The trace's JSON Schema, as "reagent-flow/schema.json" exports it (the bundle holds its own copy).
copyFileSync(join(ROOT, 'src/trace/trace.schema.json'), join(ROOT, 'dist/src/trace/trace.schema.json'))
// The run results file's, as "reagent-flow/results.schema.json" exports it.
mkdirSync(join(ROOT, 'dist/src/results'), { recursive: true })
copyFileSync(join(ROOT, 'src/results/results.schema.json'), join(ROOT, 'dist/src/results/results.schema.json'))

// The page's code shares the trace diff with the package; where the package requires `diff` on first use, the page imports it.
const diffInBrowser: Plugin = {
  name: 'diff-package-in-browser',
  setup(page) {
    page.onResolve({ filter: /\/base\/diff-package\.js$/ }, () => ({ path: join(ROOT, 'src/base/diff-package.browser.ts') }))
  },
}

const page: BuildOptions = {
  absWorkingDir: ROOT,
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['chrome109', 'firefox115', 'safari16'],
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [diffInBrowser],
}
await build({ ...page, entryPoints: ['src/viewer/client/main.ts'], outfile: 'dist/src/viewer/client/viewer.js' })
// The team viewer's page (`serve`, /ledger/): the same pages, with Trends and the charting library it draws with (uPlot, MIT: its notice kept).
await build({
  ...page,
  entryPoints: ['src/viewer/client/ledger-main.ts'],
  outfile: 'dist/src/viewer/client/ledger.js',
  banner: { js: `/*! uPlot ${UPLOT_VERSION} (c) Leon Sorokin, MIT License, https://github.com/leeoniya/uPlot */` },
})

console.log(`scripts/bundle.ts: ${entries.length + 1} entry points, ${files.length} files in dist/src/, and the viewer's page`)
