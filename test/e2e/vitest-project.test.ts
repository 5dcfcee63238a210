/**
 * reagent-flow/vitest as a user meets it: vitest run as a child process over
 * the sample project of fixtures/vitest-project/, the package resolved by its
 * public name (the built dist/). One project goes through a golden's life:
 * missing under CI, recorded, matched, broken by a changed agent, re-recorded.
 * Each step needs the previous one, so the steps run in order on one copy.
 */
import { existsSync, readFileSync, statSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadTrace } from 'reagent-flow'
import { renderGolden } from '../../src/golden/index.js'
import { copySampleProject, runVitest } from '../helpers/vitest-project.js'

const GOLDEN = '.reagent/golden/test/refund.test.ts/refund_agent___refunds_order_42.trace.json'
const RUN = '.reagent/test/refund.test.ts/refund_agent___refunds_order_42.trace.json'
const TEST_NAME = 'refund agent > refunds order 42'

/** Durations change from run to run; the rest of an agent stack trace does not. */
const withoutTimings = (text: string): string => text.replace(/( {2}|· )\d+(\.\d+)?(µs|ms|s)\b/g, '$1<t>')

const toolNames = (path: string): string[] => loadTrace(path).turns.flatMap((turn) => turn.llm_call.tool_calls.map((call) => call.name))

describe('a vitest project using reagent-flow/vitest', () => {
  let project: ReturnType<typeof copySampleProject>
  let golden: string
  beforeAll(() => {
    project = copySampleProject()
    golden = join(project.dir, GOLDEN)
  })
  afterAll(() => project.remove())

  it('under CI, fails on a missing golden, telling to record it locally and commit it', async () => {
    const { exitCode, output } = await runVitest(project.dir, { env: { CI: 'true' } })
    expect(exitCode).toBe(1)
    expect(output).toContain(
      ` FAIL  test/refund.test.ts > ${TEST_NAME}\n` +
        `Error: No golden baseline for "${TEST_NAME}" at ${GOLDEN}, and goldens are not written when the update mode is "none" ` +
        `(the default when CI is set). Record it locally (run the tests without CI, or with REAGENT_UPDATE=new) and commit ${GOLDEN}.\n`,
    )
    expect(existsSync(golden)).toBe(false)
  })

  it('writes the golden, in normal form, on the first local run, and says so', async () => {
    const { exitCode, output } = await runVitest(project.dir)
    expect(exitCode).toBe(0)
    expect(output).toContain(`stdout | test/refund.test.ts > ${TEST_NAME}\nGolden baseline for "${TEST_NAME}" written to ${GOLDEN}. Review and commit it.\n`)
    expect(output).toContain('      Tests  2 passed (2)')
    const text = readFileSync(golden, 'utf8')
    expect(text).toBe(renderGolden(loadTrace(golden)).text)
    expect(text).toContain('\n  "trace_id": "golden",\n')
    expect(toolNames(golden)).toEqual(['lookup_order', 'check_policy', 'issue_refund'])
  })

  it('passes on the next run without rewriting the golden', async () => {
    utimesSync(golden, new Date(1_000_000), new Date(1_000_000))
    const { exitCode, output } = await runVitest(project.dir)
    expect(exitCode).toBe(0)
    expect(output).toContain('      Tests  2 passed (2)')
    expect(output).not.toContain('Golden baseline for')
    expect(statSync(golden).mtimeMs).toBe(1_000_000)
  })

  it('fails when the agent changed: the golden test with our diff alone and the command that accepts it, toHaveCalledTool with the agent stack trace', async () => {
    const { exitCode, output } = await runVitest(project.dir, { env: { AGENT_VARIANT: 'skip-policy' } })
    expect(exitCode).toBe(1)
    expect(output).toContain(
      [
        ` FAIL  test/refund.test.ts > ${TEST_NAME}`,
        `Error: Trace "${TEST_NAME}" does not match its golden baseline (${GOLDEN}):`,
        '1 difference (strict) · - expected: 4 turns · + actual: 3 turns',
        '',
        '- Turn 1 (expected)',
        '-   check_policy({"days_since_delivery":3})',
        '',
        `If the new behaviour is right, accept it (or run the tests with vitest -u), then review and commit ${GOLDEN}:`,
        `  npx reagent-flow approve ${RUN}`,
        "If it is right as well as the golden's (the agent may do either), add it as another accepted variant:",
        `  npx reagent-flow approve --add ${RUN}`,
        ' ❯ test/refund.test.ts:10:21',
      ].join('\n'),
    )
    expect(output).not.toContain('- Expected')
    expect(withoutTimings(output)).toContain(
      [
        ' FAIL  test/refund.test.ts > refund agent > checks the policy before refunding',
        'Error: "check_policy" was never called (3 turns, 2 tool calls)',
        '',
        'refund agent > checks the policy before refunding  completed · 3 turns · 2 tool calls · 420 tokens (360 in / 60 out) · <t>',
        '  ✓ Turn 0  <t>  scripted-model',
        '      LLM -> lookup_order({"order_id":"42"})',
        '        ✓ {"order_id":"42","amount":19.99,"days_since_delivery":3}',
        '  ✓ Turn 1  <t>  scripted-model',
        '      LLM -> issue_refund({"order_id":"42","amount":19.99})',
        '        ✓ {"refund_id":"r_42","amount":19.99}',
        '  ✓ Turn 2  <t>  scripted-model',
        '      LLM -> “Refunded $19.99 for order 42.”',
        '',
        'ASSERTION FAILED: "check_policy" was never called (3 turns, 2 tool calls)',
        'PROBABLE CAUSE: the agent called lookup_order (turn 0), issue_refund (turn 1), and answered in turn 2: “Refunded $19.99 for order 42.”',
      ].join('\n'),
    )
    expect(output).toContain('      Tests  2 failed (2)')
    expect(statSync(golden).mtimeMs).toBe(1_000_000)
  })

  it('rewrites the golden with vitest -u, even under CI', async () => {
    const { exitCode, output } = await runVitest(project.dir, { args: ['-u', '-t', 'refunds order 42'], env: { AGENT_VARIANT: 'skip-policy', CI: 'true' } })
    expect(exitCode).toBe(0)
    expect(output).toContain(`Golden baseline for "${TEST_NAME}" rewritten at ${GOLDEN} (update mode "all"). Review and commit it.\n`)
    expect(toolNames(golden)).toEqual(['lookup_order', 'issue_refund'])
  })
})
