import { describe, expect, it } from 'vitest'
import { tempDir } from '../helpers/temp-dir.js'
import { runCli, sampleRuns, traceDirWith } from './run-cli.js'

describe('reagent-flow usage', () => {
  it('lists every command, the common options and the exit codes with --help', () => {
    const { code, stdout } = runCli(['--help'], tempDir())
    expect(code).toBe(0)
    expect(stdout).toContain('Usage: reagent-flow <command> [options]')
    for (const command of [
      'list',
      'show <run>',
      'get <run>',
      'diff <name> [<b>]',
      'approve <name...>',
      'tools diff <a> <b>',
      'grade <run> pass|fail',
      'validate [paths...]',
      'tree <run>',
      'stats',
      'ledger prune',
      'demo',
    ]) {
      expect(stdout).toMatch(new RegExp(`^  ${command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +\\S`, 'm'))
    }
    expect(stdout).toContain('  --dir <path>  the trace directory (default: .reagent)\n  --json        machine-readable output on stdout\n')
    expect(stdout).toContain(
      'Exit codes: 0 ok, 1 a check failed, 2 bad usage or unreadable input (the reason is one line on stderr), ' +
        '70 an internal error (a bug in reagent-flow: its stack is on stderr; please report it).',
    )
  })

  it("prints a command's options and examples with <command> --help, and exits 0", () => {
    const { code, stdout } = runCli(['list', '--help'], tempDir())
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Usage: reagent-flow list \[options\]\n\nThe recorded runs in the trace directory, newest first, and how many match\.\n/)
    expect(stdout).toContain('  --status <status>   only runs with this status: active | completed | failed | cancelled | interrupted\n')
    expect(stdout).toContain('Examples:\n  reagent-flow list\n')
  })

  it('exits 2 with the command list on one line for an unknown command', () => {
    const { code, stdout, stderr } = runCli(['lsit'], tempDir())
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toBe(
      'reagent-flow: unknown command "lsit". Commands: list, show, get, diff, approve, tools diff, grade, validate, tree, view, report, recordings, serve, mcp, export, import, scaffold, ci merge, ci gate, ci summary, ci comment, ci upload, ledger push, ledger prune, compare, stats, demo. Run "reagent-flow --help" for details.\n',
    )
  })

  it('names both words of an unknown command of a two-word family (ci merge, ci gate)', () => {
    const { code, stderr } = runCli(['ci', 'marge', 'a.json'], tempDir())
    expect(code).toBe(2)
    expect(stderr).toMatch(
      /^reagent-flow: unknown command "ci marge"\. Commands: .*ci merge, ci gate, ci summary, ci comment, ci upload, ledger push, ledger prune, compare, stats, demo\. /,
    )
  })

  it('exits 2 naming the unknown option and the valid ones', () => {
    const { code, stdout, stderr } = runCli(['list', '--stauts', 'failed'], tempDir())
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toBe(
      'reagent-flow list: unknown option --stauts. Valid options: --status, --q, --grade, --order-by, --limit, --offset, --dir, --json, --help\n',
    )
  })

  it('exits 2 for a value outside the valid ones, naming them', () => {
    const cwd = traceDirWith(sampleRuns())
    expect(runCli(['list', '--status', 'done'], cwd)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'reagent-flow list: --status must be one of active, completed, failed, cancelled, interrupted; got "done"\n',
    })
    expect(runCli(['list', '--limit', '500'], cwd).stderr).toBe('reagent-flow list: --limit must be a whole number from 1 to 200; got "500"\n')
    expect(runCli(['list', '--dir'], cwd).stderr).toBe(
      'reagent-flow list: option --dir needs a value: --dir <path> (a value starting with "-" is written --dir=-value)\n',
    )
    expect(runCli(['list', '--json=yes'], cwd).stderr).toBe('reagent-flow list: option --json takes no value\n')
  })

  it('exits 2 for a missing or an extra argument, with the usage line', () => {
    const cwd = traceDirWith(sampleRuns())
    expect(runCli(['show'], cwd)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'reagent-flow show: missing <run> (a trace name, a trace file or a trace_id). Usage: reagent-flow show <run> [options]\n',
    })
    expect(runCli(['show', 'a', 'b'], cwd).stderr).toBe('reagent-flow show: unexpected argument "b". Usage: reagent-flow show <run> [options]\n')
  })

  it('exits 2 with a one-line reason for a run that does not exist, also under --json', () => {
    const cwd = traceDirWith(sampleRuns())
    const reason =
      'reagent-flow show: No trace file at .reagent/refund-agnet.trace.json. "refund-agnet" is not a trace file, nor the name (or the end of the name), ' +
      'session name or trace_id of any of the 3 runs in .reagent. The closest: "refund-agent". Run "reagent-flow list --dir .reagent" to see them.\n'
    expect(runCli(['show', 'refund-agnet'], cwd)).toEqual({ code: 2, stdout: '', stderr: reason })
    expect(runCli(['show', 'refund-agnet', '--json'], cwd)).toEqual({ code: 2, stdout: '', stderr: reason })
  })

  it('exits 2 when the trace directory does not exist', () => {
    const { code, stderr } = runCli(['list', '--dir', 'nowhere'], tempDir())
    expect(code).toBe(2)
    expect(stderr).toBe(
      "reagent-flow list: No trace file at nowhere/*.trace.json. The directory nowhere does not exist. Run from your project's root, or pass --dir with the traceDir your sessions write to.\n",
    )
  })

  it('writes colour codes only when asked to (FORCE_COLOR) and never with NO_COLOR', () => {
    const cwd = traceDirWith(sampleRuns())
    expect(runCli(['list'], cwd).stdout).not.toContain('\u001b[')
    expect(runCli(['list'], cwd, { NO_COLOR: '', FORCE_COLOR: '1' }).stdout).toContain('\u001b[')
  })
})
