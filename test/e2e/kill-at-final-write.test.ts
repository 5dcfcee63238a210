/**
 * A process killed (SIGKILL) while it writes a finished session's trace
 * file: the journal was flushed before that write began, so what the run
 * recorded is recovered from it, however little time the journal's timer had.
 * The kill lands exactly at the final write: the child's `fsyncSync`, called
 * once the trace's temporary file is written and before it is renamed into
 * place, kills its own process.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadTrace } from '../../src/entries/index.js'
import { startChildAgent } from '../helpers/child-agent.js'
import { tempDir } from '../helpers/temp-dir.js'

/** Makes the child's next atomic write (the final trace write) end the process with SIGKILL before its rename. */
const KILL_AT_FINAL_WRITE = `
  const { default: fs } = await import('node:fs')
  fs.fsyncSync = () => process.kill(process.pid, 'SIGKILL')
  ;(await import('node:module')).syncBuiltinESMExports()
`

/** An agent that logs `turns` turns, yielding to the event loop after each when `yields`, then returns. */
function agent(turns: number, yields: boolean): string {
  return `
    ${KILL_AT_FINAL_WRITE}
    await session('final-write', { traceDir }, async (s) => {
      for (let i = 0; i < ${turns}; i++) {
        s.logLlmCall({ toolCalls: [{ name: 'search', arguments: { q: 'turn ' + i } }], model: 'gpt-4o' })
        s.logToolResult('search', { result: { hits: i } })
        ${yields ? 'await new Promise((resolve) => setImmediate(resolve))' : ''}
      }
      return 'done'
    })
  `
}

describe('a process killed with SIGKILL during the final write of its trace', () => {
  it.each([
    ['while its loop was free after every turn', true],
    ['after logging every turn without a yield', false],
  ])('keeps every turn the agent logged (%s), recovered as an interrupted run', async (_, yields) => {
    const traceDir = tempDir()
    const child = startChildAgent(agent(400, yields), { traceDir })
    expect(await child.exited).toEqual({ code: null, signal: 'SIGKILL' })

    // Killed before the rename: no trace file, the journal and the unfinished temporary file.
    const names = readdirSync(traceDir)
    expect(names.filter((name) => name.endsWith('.journal.jsonl'))).toHaveLength(1)
    expect(names.filter((name) => name.endsWith('.tmp'))).toHaveLength(1)
    expect(names).not.toContain('final-write.trace.json')

    const trace = loadTrace(join(traceDir, 'final-write.trace.json'))
    expect(trace.status).toBe('interrupted')
    expect(trace.interruption_reason).toBe(`process ${child.child.pid} exited before the session closed`)
    expect(trace.turns.map((turn) => turn.llm_call.tool_calls[0]?.arguments.q)).toEqual(Array.from({ length: 400 }, (_, i) => `turn ${i}`))
    expect(trace.turns.every((turn) => turn.tool_results.length === 1)).toBe(true)
  })
})
