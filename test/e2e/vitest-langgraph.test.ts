/**
 * LangGraph under vitest's `pool: 'threads', isolate: false` (fixtures/vitest-langgraph/):
 * five small files in one worker thread, shuffled with ten seeds, so the
 * LangGraph files run first and after others. Every run records every agent,
 * and warns about nothing (no LangChain undefined, no unrecorded call).
 */
import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyFixture, runVitest } from '../helpers/vitest-project.js'

const REPO_MODULES = fileURLToPath(new URL('../../node_modules/', import.meta.url))
const FILES = ['fixture-session', 'instrumented-in-test', 'no-langchain', 'no-reagent', 'plain-session']
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]

/** The test files in the order the one worker ran them (the reporter lists each file as it ends). */
function fileOrder(output: string): string[] {
  return [...output.matchAll(/^ [✓❯×] test\/([\w-]+)\.test\.ts \(/gm)].map((match) => match[1]!)
}

describe('LangGraph agents in test files sharing one worker thread (isolate: false)', () => {
  let dir: string
  let remove: () => void
  beforeAll(() => {
    ;({ dir, remove } = copyFixture('vitest-langgraph', 'suite'))
    mkdirSync(join(dir, 'node_modules', '@langchain'))
    for (const name of ['@langchain/core', '@langchain/langgraph', '@langchain/openai', 'zod']) {
      symlinkSync(join(REPO_MODULES, name), join(dir, 'node_modules', name), 'dir')
    }
  })
  afterAll(() => remove())

  it('records every agent in every file order of ten shuffled runs, the LangGraph files first or after others, and warns about nothing', async () => {
    const firstFiles = new Set<string>()
    for (const seed of SEEDS) {
      const { exitCode, output } = await runVitest(dir, { args: ['--sequence.shuffle', `--sequence.seed=${seed}`] })
      const order = fileOrder(output)
      expect({ seed, exitCode, passed: output.includes('Tests  5 passed (5)'), files: [...order].sort() }).toEqual({
        seed,
        exitCode: 0,
        passed: true,
        files: FILES,
      })
      expect({ seed, warnings: output.split('\n').filter((line) => line.includes('Warning')) }).toEqual({ seed, warnings: [] })
      firstFiles.add(order[0]!)
    }
    // The seeds put a file without LangChain first in some runs, a LangGraph file in others.
    expect([...firstFiles].some((file) => file.startsWith('no-'))).toBe(true)
    expect([...firstFiles].some((file) => !file.startsWith('no-'))).toBe(true)
  }, 300_000)
})
