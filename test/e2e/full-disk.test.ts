/**
 * A disk that fills up while a session records: the journal stops taking
 * turns, then the final write fails. The run must not later read as if it
 * were whole: it is `interrupted`, and its reason says the trace file could
 * not be written and after which turn the journal lost the rest.
 *
 * The child's disk fills for real as far as reagent-flow can tell: its
 * `appendFileSync` writes what fits under a size limit and then fails with
 * ENOSPC (as the kernel does: a short write, then no space), and creating
 * the trace's temporary file fails with ENOSPC.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadTrace } from '../../src/entries/index.js'
import { runCli } from '../cli/run-cli.js'
import { startChildAgent } from '../helpers/child-agent.js'
import { tempDir } from '../helpers/temp-dir.js'

const FULL_DISK_AGENT = `
  const { default: fs } = await import('node:fs')
  const append = fs.appendFileSync
  const open = fs.openSync
  let limit = Infinity
  const noSpace = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write', errno: -28 })
  fs.appendFileSync = (path, data, options) => {
    const bytes = Buffer.from(data)
    const size = fs.statSync(path).size
    if (size + bytes.length > limit) {
      append(path, bytes.subarray(0, Math.max(0, limit - size)))
      throw noSpace()
    }
    return append(path, data, options)
  }
  fs.openSync = (path, flags, mode) => {
    if (limit !== Infinity && String(path).endsWith('.tmp')) throw noSpace()
    return open(path, flags, mode)
  }
  ;(await import('node:module')).syncBuiltinESMExports()
  await session('full-disk', { traceDir }, async (s) => {
    for (let i = 0; i < 100; i++) {
      s.logLlmCall({ toolCalls: [{ name: 'search', arguments: { q: 'turn ' + i } }] })
      s.logToolResult('search', { result: { hits: i } })
      if (i === 62) {
        // Turns 0 to 62 reach the journal; then only the free end of its last block is left.
        await sleep(100)
        const journal = fs.readdirSync(traceDir).find((name) => name.endsWith('.journal.jsonl'))
        limit = fs.statSync(traceDir + '/' + journal).size + 400
      }
    }
    await sleep(100)
  })
`

describe('a disk that fills up while a session records', () => {
  it('leaves the run as interrupted, saying the trace file could not be written and after which turn the journal lost the rest', async () => {
    const traceDir = tempDir()
    const agent = startChildAgent(FULL_DISK_AGENT, { traceDir })
    expect(await agent.exited).toEqual({ code: 0, signal: null })

    const reason =
      'the session ended completed, but its trace file could not be written (ENOSPC); ' +
      "the journal could not be written after turn 63 (ENOSPC), so the run's later turns are missing"
    const listed = runCli(['list', '--dir', traceDir, '--json'], traceDir)
    expect((JSON.parse(listed.stdout) as { runs: unknown[] }).runs).toMatchObject([{ name: 'full-disk', status: 'interrupted', turns: 63 }])
    const trace = loadTrace(join(traceDir, 'full-disk.trace.json'))
    expect(trace).toMatchObject({ status: 'interrupted', interruption_reason: reason })
    expect(trace.turns.map((turn) => turn.llm_call.tool_calls[0]?.arguments.q)).toEqual(Array.from({ length: 63 }, (_, i) => `turn ${i}`))
  })
})
