import { describe, expect, it } from 'vitest'
import ReagentReporter from '../../src/vitest/reporter.js'

describe('the options of reagent-flow/vitest/reporter', () => {
  it('takes a path or false for results', () => {
    expect(() => new ReagentReporter({ results: false })).not.toThrow()
    expect(() => new ReagentReporter({ results: 'artifacts/agents.json' })).not.toThrow()
  })

  it('refuses any other value of results, saying what it takes', () => {
    expect(() => new ReagentReporter({ results: true } as never)).toThrow(
      new TypeError('reagent-flow/vitest/reporter option "results" must be a non-empty string (a path) or false, got true.'),
    )
  })

  it('lists results among the valid options of an unknown one', () => {
    expect(() => new ReagentReporter({ result: 'x' } as never)).toThrow(
      new TypeError('Unknown reagent-flow/vitest/reporter option "result". Valid options: traceDir, report, title, results, githubActions.'),
    )
  })

  it('takes true or false for githubActions, and refuses anything else', () => {
    expect(() => new ReagentReporter({ githubActions: false })).not.toThrow()
    expect(() => new ReagentReporter({ githubActions: 'yes' } as never)).toThrow(
      new TypeError('reagent-flow/vitest/reporter option "githubActions" must be true or false, got "yes".'),
    )
  })
})
