import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { loadTrace } from 'reagent-flow'
import { renderGolden } from '../../src/golden/index.js'
import { tempDir } from '../helpers/temp-dir.js'

const CLI = join(import.meta.dirname, '../../dist/src/cli/index.js')
const REPO = fileURLToPath(new URL('../../', import.meta.url))

/** What `git status` says of the repository, untracked files one by one. */
function gitStatus(): string {
  return execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: REPO, encoding: 'utf8' })
}

/** Every file under the repository's .reagent/ (ignored or not) with its mtime: what a demo run must leave as it was. */
function reagentFolder(): Record<string, number> {
  const root = join(REPO, '.reagent')
  if (!existsSync(root)) return {}
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).map((path) => join(root, path))
  const stats = files.map((path) => ({ path, stat: statSync(path) })).filter(({ stat }) => stat.isFile())
  return Object.fromEntries(stats.map(({ path, stat }) => [path, stat.mtimeMs]))
}

describe('npm run demo (reagent-flow demo, built)', () => {
  it('records the scripted agent, prints a summary, assertions that pass, and golden comparisons, one failing with its diff', () => {
    const dir = tempDir()
    const stdout = execFileSync(process.execPath, [CLI, 'demo', '--dir', dir], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } })
    const lines = stdout.split('\n')
    expect(lines[0]).toBe('reagent-flow demo: a scripted refund agent (no API key, no network)')
    expect(lines[2]).toMatch(/^demo-refund-agent {2}completed · 4 turns · 3 tool calls · 990 tokens \(920 in \/ 70 out\) · \S+$/)
    expect(stdout).toContain(
      '      LLM -> lookup_order({"order_id":"42"})\n        ✓ {"order_id":"42","amount":19.99,"status":"delivered","days_since_delivery":3}',
    )
    expect(stdout).toContain('      LLM -> issue_refund({"order_id":"42","amount":19.99})\n        ✓ {"ok":true,"refund_id":"r_42","amount":19.99}')
    expect(stdout).toContain('      LLM -> “Refunded $19.99 for order 42. The money is back in 3-5 days.”')
    expect(stdout).toContain(`Trace written to ${join(dir, 'demo-refund-agent.trace.json')}`)
    expect(stdout).toContain(
      [
        'Assertions on the recorded run',
        "  ✓ s.assertCalled('issue_refund')",
        "  ✓ s.assertCalledBefore('check_policy', 'issue_refund')",
        "  ✓ s.assertCalledWith('issue_refund', { order_id: '42', amount: 19.99 })",
        "  ✓ s.assertFlow(['lookup_order', '...', 'issue_refund'])",
        "  ✓ s.assertToolSucceeded('issue_refund')",
        '  ✓ s.assertMaxTurns(5)',
        '  ✓ s.assertTotalTokensUnder(2_000)',
      ].join('\n'),
    )
    const golden = join(dir, 'golden', 'demo-refund-agent.trace.json')
    expect(stdout.slice(stdout.indexOf('Golden baseline\n'))).toBe(
      [
        'Golden baseline',
        `  ✓ the run above, recorded as the golden baseline: ${golden}`,
        '  ✓ the same agent, run again: matches its golden',
        '  ✗ the agent after a prompt change that drops the policy check: differs from its golden',
        '',
        '    1 difference (strict) · - expected: 4 turns · + actual: 3 turns',
        '',
        '    - Turn 1 (expected)',
        '    -   check_policy({"days_since_delivery":3})',
        '',
        '  (This failure is part of the demo: a golden comparison catches the skipped policy check.)',
        '',
      ].join('\n'),
    )
    expect(readFileSync(golden, 'utf8')).toBe(renderGolden(loadTrace(join(dir, 'demo-refund-agent.trace.json'))).text)
    // The golden holds each call's whole conversation, not the run file's messages_base.
    const written = JSON.parse(readFileSync(golden, 'utf8')) as { turns: Array<{ llm_call: Record<string, unknown[]> }> }
    expect(written.turns.map((turn) => [turn.llm_call.messages?.length, 'messages_base' in turn.llm_call])).toEqual([
      [2, false],
      [3, false],
      [4, false],
      [5, false],
    ])

    const trace = loadTrace(join(dir, 'demo-refund-agent.trace.json'))
    expect(trace.turns.flatMap((t) => t.llm_call.tool_calls.map((c) => c.name))).toEqual(['lookup_order', 'check_policy', 'issue_refund'])
    expect(trace.metadata).toEqual({ goal: 'Refund order 42' })
  })

  it('run in the repository as npm run demo runs it, leaves the repository as it was: the run and its golden go to a new temporary folder', () => {
    const [status, folder] = [gitStatus(), reagentFolder()]
    const stdout = execFileSync(process.execPath, [CLI, 'demo'], { cwd: REPO, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } })
    const dir = /^Trace written to (.*)\/demo-refund-agent\.trace\.json$/m.exec(stdout)?.[1]
    const scratch = join(tmpdir(), 'reagent-flow-demo-')
    if (dir?.startsWith(scratch)) rmSync(dir, { recursive: true, force: true })
    expect(gitStatus()).toBe(status)
    expect(reagentFolder()).toEqual(folder)
    expect(dir?.startsWith(scratch) && /^\w{6}$/.test(dir.slice(scratch.length))).toBe(true)
    expect(stdout).toContain(`  ✓ the run above, recorded as the golden baseline: ${join(dir!, 'golden', 'demo-refund-agent.trace.json')}\n`)
    expect(stdout).toContain('  ✓ the same agent, run again: matches its golden\n')
  })

  it('says in its help where it writes without --dir', () => {
    const help = execFileSync(process.execPath, [CLI, 'demo', '--help'], { encoding: 'utf8' })
    expect(help).toContain('where <dir> is a new temporary folder unless --dir is given: the demo leaves nothing in your project.\n')
    expect(help).toContain('\n  --dir <path>  the trace directory (default: a new temporary folder)\n')
  })

  it('prints { file, answer } with --json', () => {
    const dir = tempDir()
    const stdout = execFileSync(process.execPath, [CLI, 'demo', '--dir', dir, '--json'], { encoding: 'utf8' })
    expect(JSON.parse(stdout)).toEqual({
      file: join(dir, 'demo-refund-agent.trace.json'),
      answer: 'Refunded $19.99 for order 42. The money is back in 3-5 days.',
    })
  })

  it('exits 0 and prints the same on a second run, leaving the golden as it was', () => {
    const dir = tempDir()
    const run = (): string => execFileSync(process.execPath, [CLI, 'demo', '--dir', dir], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } })
    const first = run()
    const golden = join(dir, 'golden', 'demo-refund-agent.trace.json')
    utimesSync(golden, new Date(1_000_000), new Date(1_000_000))
    const second = run()
    const goldenPart = (out: string): string => out.slice(out.indexOf('Golden baseline\n'))
    expect(goldenPart(second)).toBe(goldenPart(first))
    expect(statSync(golden).mtimeMs).toBe(1_000_000)
  })

  it('prints no colour codes when NO_COLOR is set', () => {
    const dir = tempDir()
    const stdout = execFileSync(process.execPath, [CLI, 'demo', '--dir', dir], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '1' } })
    expect(stdout).not.toContain('\u001b[')
  })

  it('exits 2 with a one-line reason for an unknown command', () => {
    let error: { status?: number; stderr?: string } | undefined
    try {
      execFileSync(process.execPath, [CLI, 'dmeo'], { encoding: 'utf8', stdio: 'pipe' })
    } catch (e) {
      error = e as typeof error
    }
    expect(error?.status).toBe(2)
    expect(error?.stderr).toBe(
      'reagent-flow: unknown command "dmeo". Commands: list, show, get, diff, approve, tools diff, grade, validate, tree, view, report, recordings, serve, mcp, export, import, scaffold, ci merge, ci gate, ci summary, ci comment, ci upload, ledger push, ledger prune, compare, stats, demo. Run "reagent-flow --help" for details.\n',
    )
  })
})
