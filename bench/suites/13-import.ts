/**
 * What a test file pays before its first test: a cold `import('reagent-flow')`
 * in a fresh Node process, against a cold `import('openai')` in the same run
 * (issue 24's target: 0.3x), and how many of our modules that import loads.
 * Each sample is its own process, so nothing is cached but the disk's pages;
 * processes alternate between the two imports.
 *
 * And `reagent-flow/vitest` as a setup file: vitest run one file at a time
 * over SETUP_FILES test files of one empty test each, with the setup file
 * and without, interleaved; its cost per test file is the difference over
 * the number of files (issue 24's target: 50 ms).
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { modulesLoadedBy } from '../../test/helpers/modules-loaded.js'
import type { Row } from '../lib/report.js'
import type { BenchSuite } from '../run.js'
import { installPackage } from '../lib/installed-package.js'
import { runVitest } from '../lib/vitest-child.js'

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

const SETUP_FILES = 20
const SETUP_RUNS = 3

/** vitest's defaults (a fresh module graph per file), one file at a time, so the run's wall time is the sum of the files'. */
const ONE_AT_A_TIME = ['--no-file-parallelism', '--maxWorkers=1']

/** Wall time of vitest over SETUP_FILES empty test files with `reagent-flow/vitest` as a setup file, and without: medians of SETUP_RUNS. */
async function setupFileFigures(): Promise<{ withMs: number; withoutMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'reagent-setup-bench-'))
  try {
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n')
    installPackage(dir, ['vitest'])
    mkdirSync(join(dir, 'test'))
    for (let i = 0; i < SETUP_FILES; i++) writeFileSync(join(dir, 'test', `file-${i}.test.js`), "import { test } from 'vitest'\ntest('nothing', () => {})\n")
    writeFileSync(join(dir, 'with.config.js'), "export default { test: { setupFiles: ['reagent-flow/vitest'] } }\n")
    writeFileSync(join(dir, 'without.config.js'), 'export default { test: {} }\n')
    const times: Record<'with' | 'without', number[]> = { with: [], without: [] }
    for (let run = 0; run < SETUP_RUNS; run++) {
      for (const name of ['with', 'without'] as const) {
        const result = await runVitest(dir, {}, [`--config=${name}.config.js`, ...ONE_AT_A_TIME])
        if (result.code !== 0 || !new RegExp(`Tests +${SETUP_FILES} passed`).test(result.output))
          throw new Error(`bench: vitest ${name} the setup file failed:\n${result.output}`)
        times[name].push(result.ms)
      }
    }
    return { withMs: median(times.with), withoutMs: median(times.without) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export const suite: BenchSuite = {
  name: 'import',
  async run() {
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
    const setup = await setupFileFigures()
    rows.push({
      suite: `reagent-flow/vitest as vitest's setup file, vitest's defaults, one file at a time (${SETUP_FILES} test files, median of ${SETUP_RUNS} runs)`,
      name: 'what the setup file adds to each test file',
      value: (setup.withMs - setup.withoutMs) / SETUP_FILES,
      unit: 'ms',
      baseline: setup.withoutMs / SETUP_FILES,
      baselineName: 'vitest alone, per test file',
      target: { max: 50, of: 'value' },
    })
    return rows
  },
}
