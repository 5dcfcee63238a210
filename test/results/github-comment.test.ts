import { describe, expect, it } from 'vitest'
import { commentBody } from '../../src/results/github-comment.js'
import { resultsMarkdown } from '../../src/results/markdown.js'
import { HOSTILE_RESULTS, runOf, testOf } from './ci-fixture.js'

describe('the body of the pull-request comment', () => {
  it('is the marker and the Markdown of the run', () => {
    expect(commentBody(HOSTILE_RESULTS)).toBe(`<!-- reagent-flow -->\n${resultsMarkdown(HOSTILE_RESULTS)}`)
  })

  it('with a key, has the key in its marker and in its heading', () => {
    expect(commentBody(HOSTILE_RESULTS, 'checkout_agent')).toBe(
      `<!-- reagent-flow key=checkout_agent -->\n${resultsMarkdown(HOSTILE_RESULTS).replace('### reagent-flow: agent tests\n', '### reagent-flow: agent tests · checkout\\_agent\n')}`,
    )
  })

  it("keeps within GitHub's 65,536 characters by cutting the table's passing rows, failures first", () => {
    const tests = Array.from({ length: 2000 }, (_, i) =>
      testOf(`agent ${i} ${'x'.repeat(60)}`, i === 1999 ? 'failed' : 'passed', [runOf('r', 1, 0.01)], { failure: i === 1999 ? 'it broke' : null }),
    )
    const body = commentBody({ ...HOSTILE_RESULTS, tests })
    expect(body.length).toBeLessThanOrEqual(65_536)
    expect(body).toContain('| agent 1999 ')
    expect(body).toContain('- agent 1999 ')
    expect(body).toMatch(/\n…and \d+ more agent tests: the results file lists every one\.\n/)
  })
})
