/**
 * What a test file pays before its first test: a cold `import('reagent-flow')`
 * in a fresh Node process, against a cold `import('openai')` in the same run
 * (issue 24's target: 0.3x), and how many of our modules that import loads.
 * Each sample is its own process, so nothing is cached but the disk's pages;
 * processes alternate between the two imports.
 */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { modulesLoadedBy } from '../../test/helpers/modules-loaded.js'
import type { Row } from '../lib/report.js'
import type { BenchSuite } from '../run.js'

const ROOT = join(import.meta.dirname, '../..')
const SAMPLES = 15

/** Milliseconds a fresh process spends in `await import(specifier)`, measured inside it. */
function coldImportMs(specifier: string): number {
  const code = `const t = performance.now(); await import(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - t))`
  return Number(execFileSync(process.execPath, ['--no-warnings', '--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' }))
}

/** The modules of this package (under dist/) that `import(specifier)` loads. */
function ourModulesLoadedBy(specifier: string): number {
  const loaded = modulesLoadedBy(`await import(${JSON.stringify(specifier)})`, ROOT)
  return new Set(loaded.filter((url) => url.includes('/dist/') && !url.includes('/node_modules/'))).size
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

export const suite: BenchSuite = {
  name: 'import',
  run() {
    const ours: number[] = []
    const openai: number[] = []
    // One of each first, unmeasured: the disk's page cache then holds both packages.
    coldImportMs('reagent-flow')
    coldImportMs('openai')
    for (let i = 0; i < SAMPLES; i++) {
      ours.push(coldImportMs('reagent-flow'))
      openai.push(coldImportMs('openai'))
    }
    const suiteName = `A cold import in a fresh process (median of ${SAMPLES} processes each)`
    const rows: Row[] = [
      {
        suite: suiteName,
        name: "import('reagent-flow')",
        value: median(ours),
        unit: 'ms',
        baseline: median(openai),
        baselineName: "import('openai')",
        target: { max: 0.3, of: 'ratio' },
      },
      { suite: suiteName, name: "modules of ours loaded by import('reagent-flow')", value: ourModulesLoadedBy('reagent-flow'), unit: 'modules' },
    ]
    return rows
  },
}
