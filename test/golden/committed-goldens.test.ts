/**
 * Every golden the repository commits is in the current golden normal form,
 * byte for byte: the golden files, and the goldens its documentation shows.
 * When the form changes, this fails naming each golden left in the old one:
 * rewrite it (`reagent-flow approve`, or REAGENT_UPDATE=all for a test's own
 * golden), or paste the new text into the page.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readVariants, variantOf, variantsText } from '../../src/golden/variants.js'
import { codeBlocks, docPages, REPO } from '../helpers/doc-examples.js'

/** Goldens the Python reagent-flow 0.5 wrote: kept as it wrote them, since reading them is what they test. */
const WRITTEN_BY_PYTHON = 'fixtures/reagent-flow-py-0.5/'

/** A golden's text as the current normal form writes what it holds: each variant's text made again, never the file's own. */
function renormalised(path: string, text: string): string {
  return variantsText(readVariants({ path, text }).map((variant) => variantOf(variant.trace))).text
}

/** The golden files git tracks (in a `golden/` folder), by path from the repository's root. */
function committedGoldenFiles(): string[] {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: REPO, encoding: 'utf8' }).split('\0')
  return tracked.filter(
    (path) => path.endsWith('.trace.json') && path.split('/').includes('golden') && !path.startsWith(WRITTEN_BY_PYTHON) && existsSync(join(REPO, path)),
  )
}

/** The goldens the documentation shows: its JSON blocks that are golden traces, as `file:line`. */
function documentedGoldens(): Array<{ at: string; text: string }> {
  return docPages().flatMap((page) =>
    codeBlocks(page)
      .filter((block) => block.lang === 'json' && block.code.includes('\n  "trace_id": "golden",\n'))
      .map((block) => ({ at: `${page.file}:${block.line}`, text: block.code })),
  )
}

describe("the repository's goldens", () => {
  it('are each in the current golden normal form, byte for byte (files git tracks, and the goldens the docs show)', () => {
    const goldens = [...committedGoldenFiles().map((path) => ({ at: path, text: readFileSync(join(REPO, path), 'utf8') })), ...documentedGoldens()]
    // docs/goldens.md's "The golden file" at least: a check that finds nothing checks nothing.
    expect(goldens.some(({ at }) => at.startsWith('docs/goldens.md:'))).toBe(true)
    const stale = goldens.filter(({ at, text }) => renormalised(at, text) !== text).map(({ at }) => at)
    expect(stale, 'goldens not in the current normal form (rewrite them: reagent-flow approve, or paste the new text into the page)').toEqual([])
  })
})
