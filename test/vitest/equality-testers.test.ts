import { expect, it } from 'vitest'
import '../../src/entries/vitest.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { matcherFailure } from './helpers.js'

// Equality testers are global to the file's expect: this file alone adds one.
expect.addEqualityTesters([
  function caseInsensitive(a: unknown, b: unknown) {
    return typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() === b.toLowerCase() : undefined
  },
])

const trace = buildTrace('search-agent', [{ calls: [{ name: 'search', args: { q: 'Rome', page: 0 }, result: [] }] }])

it('toHaveCalledToolWith() compares arguments with the equality testers added to expect', () => {
  expect(trace).toHaveCalledToolWith('search', { q: 'ROME' })
  expect(trace).not.toHaveCalledToolWith('search', { q: 'Paris' })
})

it("toHaveCalledToolWith() follows vitest's equality where it is stricter than the core's", () => {
  const failure = matcherFailure(() => expect(trace).toHaveCalledToolWith('search', { page: -0 }))
  expect(failure.message.split('\n')[0]).toBe(
    '"search" was called but no call matched {"page": 0} by vitest\'s equality (toEqual, with the equality testers added)',
  )
  expect(failure.message).toContain('\n      LLM -> search({"q":"Rome","page":0})\n')
})
