import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const FIXTURES = join(import.meta.dirname, '../../fixtures/compare')
const hasScipy = spawnSync('python3', ['-c', 'import scipy']).status === 0

/** Every number in `value`, with the path that leads to it, for a comparison with a tolerance. */
function numbersOf(value: unknown, path = ''): Array<[string, number]> {
  if (typeof value === 'number') return [[path, value]]
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).flatMap(([key, inner]) => numbersOf(inner, `${path}/${key}`))
}

describe.skipIf(!hasScipy)('the committed expected values (python3 with scipy installed: apt-get install python3-scipy)', () => {
  it('are what SciPy computes from the samples now', () => {
    const run = spawnSync('python3', [join(FIXTURES, 'scipy-values.py'), '--stdout'], { encoding: 'utf8' })
    expect(run.stderr).toBe('')
    const now = JSON.parse(run.stdout) as Record<string, unknown>
    const committed = JSON.parse(readFileSync(join(FIXTURES, 'scipy-values.json'), 'utf8')) as Record<string, unknown>
    // Another SciPy may round the last digits differently; the values stay the same to 1e-9.
    const { scipy: _nowVersion, ...nowValues } = now
    const { scipy: _committedVersion, ...committedValues } = committed
    const shape = (value: unknown) => JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'number' ? 0 : inner))
    expect(shape(nowValues)).toBe(shape(committedValues))
    const expected = numbersOf(committedValues)
    const actual = numbersOf(nowValues)
    const far = actual.filter(([, value], index) => !(Math.abs(value - (expected[index]?.[1] ?? Number.NaN)) <= 1e-9))
    expect(far).toEqual([])
  })
})
