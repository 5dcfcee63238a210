import { describe, expect, it } from 'vitest'
import { escapeMarkdown, resultsMarkdown } from '../../src/results/markdown.js'
import { failureAnnotations } from '../../src/results/workflow-commands.js'
import { HOSTILE_RESULTS, runOf, testOf } from './ci-fixture.js'

describe('the Markdown of a run', () => {
  it('tables the agent tests, failures first, with totals and the failing assertions, every name escaped', () => {
    expect(resultsMarkdown(HOSTILE_RESULTS)).toBe(
      [
        '### reagent-flow: agent tests',
        '',
        '❌ **1 of 3 agent tests failed** · 1 other test failed · 5 runs · 1180 tokens · $0.00021 spent · commit 0123456 on feature/refunds',
        '',
        '| test | outcome | runs | tokens | USD | turns | tool calls | golden |',
        '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |',
        '| multi<br>line \\*name\\*<br>test/odd,file:name.test.ts:12 | ❌ failed | 1 | 420 | $0.000090 | 3 | 2 | – |',
        '| refunds \\| pipes &amp; &lt;script>alert(1)&lt;/script><br>test/agent.test.ts:7 | ✅ passed | 1 | 560 | $0.00012 | 2 | 1 | matched |',
        '| refunds reliably<br>test/agent.test.ts | ✅ passed | 3 (66.7% passed) | 200 | – | 6 | 3 | written |',
        '',
        '**Failures**',
        '',
        '- multi<br>line \\*name\\* (test/odd,file:name.test.ts:12): expected "sk-live-1234567890abcdef" to be called: 100% of \\$0.01, a<br>b',
        '',
      ].join('\n'),
    )
  })

  it('says so when no test opened a session', () => {
    expect(resultsMarkdown({ ...HOSTILE_RESULTS, tests: [testOf('plain', 'passed', [])] })).toBe(
      '### reagent-flow: agent tests\n\nNo agent test ran: no test of this run opened a session.\n',
    )
  })

  it('keeps the failures when the table is cut to maxRows, and counts the tests left out; names the shards', () => {
    const results = {
      ...HOSTILE_RESULTS,
      commit: null,
      merged_shards: [
        { index: 1, count: 2 },
        { index: 2, count: 2 },
      ],
      tests: [testOf('ok', 'passed', [runOf('a', 1, 0.5)]), testOf('bad', 'failed', [runOf('b', 1, 0.25)], { failure: 'x'.repeat(600) })],
    }
    expect(resultsMarkdown(results, { maxRows: 1 })).toBe(
      [
        '### reagent-flow: agent tests',
        '',
        '❌ **1 of 2 agent tests failed** · 2 runs · 2 tokens · $0.75 spent · 2 shards merged',
        '',
        '| test | outcome | runs | tokens | USD | turns | tool calls | golden |',
        '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |',
        '| bad<br>test/agent.test.ts | ❌ failed | 1 | 1 | $0.25 | 2 | 1 | – |',
        '',
        '…and 1 more agent test: the results file lists every one.',
        '',
        '**Failures**',
        '',
        `- bad (test/agent.test.ts): ${'x'.repeat(499)}…`,
        '',
      ].join('\n'),
    )
  })

  it('escapes what Markdown or HTML would act on, and nothing else', () => {
    expect(escapeMarkdown('a_b [c](d) `e` ~f~ \\g $h & <i> > j\r\nk\rl')).toBe('a\\_b \\[c\\](d) \\`e\\` \\~f\\~ \\\\g \\$h &amp; &lt;i> > j<br>k<br>l')
  })
})

describe('the annotations of a run', () => {
  it('prints an ::error line for each failing agent test, with the file from the repository root, its line and escaped text', () => {
    expect(failureAnnotations(HOSTILE_RESULTS, (file) => `packages/agents/${file}`)).toEqual([
      '::error file=packages/agents/test/odd%2Cfile%3Aname.test.ts,line=12,title=agent test failed%3A multi%0Aline *name*::' +
        'expected "sk-live-1234567890abcdef" to be called: 100%25 of $0.01, a%0D%0Ab',
    ])
  })

  it('leaves the line out when the results do not know it', () => {
    const results = { ...HOSTILE_RESULTS, tests: [testOf('t', 'failed', [runOf('a', 1, 1)])] }
    expect(failureAnnotations(results, (file) => file)).toEqual([
      '::error file=test/agent.test.ts,title=agent test failed%3A t::the test failed with no error message',
    ])
  })
})
