/**
 * Traces of any size: a 1,000,000-turn session, and a trace larger than
 * V8's longest string (about 512 MiB), are written and loaded back; a file
 * too large for the memory a process has fails fast, naming its size. Each
 * step runs in a child process with a heap of its own.
 */
import { spawnSync } from 'node:child_process'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../helpers/temp-dir.js'

const ENTRY = fileURLToPath(new URL('../../dist/src/entries/index.js', import.meta.url))

function runNode(script: string, heapMb: number): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(
    process.execPath,
    [`--max-old-space-size=${heapMb}`, '--no-warnings', '--input-type=module', '-e', `import * as reagent from ${JSON.stringify(ENTRY)}\n${script}`],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    },
  )
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe('traces of any size', () => {
  it('writes a 1,000,000-turn session and loads it back, turn for turn', () => {
    const traceDir = tempDir()
    const recorded = runNode(
      `await reagent.session('million', { traceDir: ${JSON.stringify(traceDir)}, journal: false }, (s) => {
        for (let i = 0; i < 1_000_000; i++) {
          s.logLlmCall({ toolCalls: [{ name: 'step', arguments: { i } }] })
          s.logToolResult('step', { result: i })
        }
      })`,
      4096,
    )
    expect(recorded).toMatchObject({ status: 0, stderr: '' })
    const loaded = runNode(
      `const trace = reagent.loadTrace(${JSON.stringify(join(traceDir, 'million.trace.json'))})
      let wrong = 0
      trace.turns.forEach((turn, i) => { if (turn.index !== i || turn.llm_call.tool_calls[0].arguments.i !== i || turn.tool_results[0].result !== i) wrong++ })
      console.log(trace.turns.length, wrong, trace.status)`,
      4096,
    )
    expect(loaded).toEqual({ status: 0, stdout: '1000000 0 completed\n', stderr: '' })
  }, 240_000)

  it('writes a trace longer than the longest string V8 can hold, and loads it back', () => {
    const traceDir = tempDir()
    const path = join(traceDir, 'huge.trace.json')
    const written = runNode(
      `const output = 'x'.repeat(500_000)
      await reagent.session('huge', { traceDir: ${JSON.stringify(traceDir)}, journal: false }, (s) => {
        for (let i = 0; i < 1_150; i++) {
          s.logLlmCall({ toolCalls: [{ name: 'fetch_page', arguments: { page: i } }] })
          s.logToolResult('fetch_page', { result: output + i })
        }
      })`,
      4096,
    )
    expect(written).toMatchObject({ status: 0, stderr: '' })
    expect(statSync(path).size).toBeGreaterThan(2 ** 29)
    const loaded = runNode(
      `const trace = reagent.loadTrace(${JSON.stringify(path)})
      console.log(trace.turns.length, trace.turns[1149].tool_results[0].result.slice(-5))`,
      4096,
    )
    expect(loaded).toEqual({ status: 0, stdout: '1150 x1149\n', stderr: '' })
  }, 240_000)

  it("loads a conversation too large to read whole with every call's whole message list, each message shared with the call before", () => {
    const traceDir = tempDir()
    const path = join(traceDir, 'conversation.trace.json')
    // 1,400 calls, each sending the whole history with a 50 KB tool output per step: about 140 MB on disk, read in pieces.
    const written = runNode(
      `await reagent.session('conversation', { traceDir: ${JSON.stringify(traceDir)}, journal: false }, (s) => {
        const history = [{ role: 'system', content: 'You read pages.' }, { role: 'user', content: 'Read every page.' }]
        for (let i = 0; i < 1_400; i++) {
          const [id] = s.logLlmCall({ messages: [...history], toolCalls: [{ name: 'read_page', arguments: { page: i } }] })
          const output = 'page ' + i + ': ' + 'text '.repeat(10_000)
          s.logToolResult('read_page', { callId: id, result: output })
          history.push({ role: 'assistant', content: 'read_page(' + i + ')' }, { role: 'tool', content: output })
        }
      })`,
      4096,
    )
    expect(written).toMatchObject({ status: 0, stderr: '' })
    expect(statSync(path).size).toBeGreaterThan(128 * 2 ** 20)
    // Each call's list is the one before it (the same objects) and the two messages of the last step.
    const loaded = runNode(
      `const trace = reagent.loadTrace(${JSON.stringify(path)})
      let previous = [{ role: 'system', content: 'You read pages.' }, { role: 'user', content: 'Read every page.' }]
      let wrong = 0
      trace.turns.forEach((turn, i) => {
        const messages = turn.llm_call.messages
        const added = i === 0 ? previous : [{ role: 'assistant', content: 'read_page(' + (i - 1) + ')' }, { role: 'tool', content: 'page ' + (i - 1) + ': ' + 'text '.repeat(10_000) }]
        const base = i === 0 ? 0 : previous.length
        if (messages.length !== base + added.length || 'messages_base' in turn.llm_call) wrong++
        for (let at = 0; at < base; at++) if (messages[at] !== previous[at]) wrong++
        added.forEach((m, at) => { if (JSON.stringify(messages[base + at]) !== JSON.stringify(m)) wrong++ })
        previous = messages
      })
      console.log(trace.turns.length, previous.length, wrong)`,
      4096,
    )
    expect(loaded).toEqual({ status: 0, stdout: '1400 2800 0\n', stderr: '' })
  }, 240_000)

  it('fails fast with a TraceFormatError naming the file and its size when it would not fit in memory', () => {
    const traceDir = tempDir()
    const path = join(traceDir, 'wide.trace.json')
    expect(
      runNode(
        `await reagent.session('wide', { traceDir: ${JSON.stringify(traceDir)}, journal: false }, (s) => {
          for (let i = 0; i < 400; i++) s.logLlmCall({ responseText: String(i).padEnd(250_000, '.') })
        })`,
        1024,
      ).status,
    ).toBe(0)
    const started = Date.now()
    const loaded = runNode(
      `try { reagent.loadTrace(${JSON.stringify(path)}) } catch (error) { console.log(error.name, error.rule); console.log(error.message) }`,
      64,
    )
    expect(Date.now() - started).toBeLessThan(20_000)
    const [head, message] = loaded.stdout.split('\n')
    expect(head).toBe('TraceFormatError size')
    expect(message).toMatch(
      new RegExp(
        `^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not a valid reagent-flow trace: at the top level: the file is 9[0-9]\\.[0-9] MB, too large to load here: loading it needs about 19[0-9]\\.[0-9] MB of memory and this process has [0-9.]+ MB free \\(of [0-9.]+ MB\\)\\. Run node with a larger --max-old-space-size, or load fewer traces at once \\(rule: size\\)\\.$`,
      ),
    )
  }, 60_000)
})
