/**
 * How `reagent-flow` ends when a command throws: what the user can fix is
 * one line and exit 2, a bug of ours its stack and exit 70. main() is run
 * with a command table of its own, so each kind of failure is a real throw.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { EXIT_INTERNAL, EXIT_USAGE, main, type CliIo } from '../../src/cli/main.js'
import type { Command } from '../../src/cli/command.js'
import { TraceNotFoundError } from '../../src/errors/index.js'
import { tempDir } from '../helpers/temp-dir.js'
import { runCli } from './run-cli.js'

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version

/** A command named `boom` that runs `body`, which throws. */
function commandRunning(body: () => unknown): Command {
  return { name: 'boom', args: '', summary: 'throws', options: {}, positionals: { min: 0, max: 0, names: '' }, examples: [], run: () => Number(body()) }
}

async function run(body: () => unknown): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const io: CliIo = { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), color: false }
  const code = await main(['boom'], io, [commandRunning(body)])
  return { code, stdout, stderr }
}

describe('reagent-flow, when a command throws', () => {
  it('prints a bug of ours with its stack, the version and what to do, and exits 70', async () => {
    const { code, stdout, stderr } = await run(() => (JSON.parse('{}') as { turns: unknown[] }).turns.length)
    expect([code, stdout]).toEqual([EXIT_INTERNAL, ''])
    expect(EXIT_INTERNAL).toBe(70)
    const lines = stderr.split('\n')
    expect(lines[0]).toBe(`reagent-flow boom: internal error in reagent-flow ${VERSION} (a bug, not a problem with your input):`)
    expect(lines[1]).toBe("TypeError: Cannot read properties of undefined (reading 'length')")
    expect(lines[2]).toMatch(/^ {4}at .*internal-errors\.test\.ts:\d+:\d+/)
    expect(lines.at(-2)).toBe('Please report it with the command you ran and this output.')
    expect(lines.at(-1)).toBe('')
  })

  it("shows the error's causes below its stack", async () => {
    const { code, stderr } = await run(() => {
      try {
        new Array(-1)
      } catch (error) {
        throw new Error('could not index the run', { cause: Object.assign(error as Error, { cause: 'a string thrown deep down' }) })
      }
    })
    expect(code).toBe(EXIT_INTERNAL)
    expect(stderr).toContain('\nError: could not index the run\n    at ')
    expect(stderr).toContain('\nCaused by: RangeError: Invalid array length\n    at ')
    expect(stderr).toContain('\nCaused by: thrown value: a string thrown deep down\nPlease report it')
  })

  it('treats a thrown value that is not an Error as a bug too', async () => {
    const { code, stderr } = await run(() => {
      throw 'just a string'
    })
    expect(code).toBe(EXIT_INTERNAL)
    expect(stderr).toBe(
      `reagent-flow boom: internal error in reagent-flow ${VERSION} (a bug, not a problem with your input):\nthrown value: just a string\nPlease report it with the command you ran and this output.\n`,
    )
  })

  it('prints what the user can fix as one line and exits 2: a ReagentError, a refusal of the file system', async () => {
    const missing = (): never => {
      throw new TraceNotFoundError('.reagent/x.trace.json', 'Check the name.\nOr the directory.')
    }
    expect(await run(missing)).toEqual({
      code: EXIT_USAGE,
      stdout: '',
      stderr: 'reagent-flow boom: No trace file at .reagent/x.trace.json. Check the name. Or the directory.\n',
    })
    const dir = tempDir()
    const refused = await run(() => readFileSync(dir))
    expect(refused).toEqual({ code: EXIT_USAGE, stdout: '', stderr: 'reagent-flow boom: EISDIR: illegal operation on a directory, read\n' })
  })
})

describe('reagent-flow --version', () => {
  it('prints the name and version of the installed package, and exits 0', () => {
    for (const flag of ['--version', '-v']) expect(runCli([flag], tempDir())).toEqual({ code: 0, stdout: `reagent-flow ${VERSION}\n`, stderr: '' })
  })
})
