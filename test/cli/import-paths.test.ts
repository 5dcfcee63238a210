import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ImportPaths } from '../../src/cli/import-paths.js'

describe('the files reagent-flow import writes', () => {
  it('gives a name taken already the next free suffix, stepping over a run really named so', () => {
    const paths = new ImportPaths('out')
    expect(['support', 'support-2', 'support', 'support', 'billing'].map((name) => paths.pathFor(name))).toEqual(
      ['support', 'support-2', 'support-3', 'support-4', 'billing'].map((file) => join('out', `${file}.trace.json`)),
    )
  })

  it('names 20,000 runs of one agent (a recursive agent nested 20,000 deep) one after the other, not each from the start', () => {
    const paths = new ImportPaths('out')
    const files = Array.from({ length: 20_000 }, () => paths.pathFor('recursive-agent'))
    expect(new Set(files).size).toBe(20_000)
    expect(files.at(-1)).toBe(join('out', 'recursive-agent-20000.trace.json'))
  })
})
