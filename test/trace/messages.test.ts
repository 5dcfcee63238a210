/**
 * Message histories on disk grow linearly with the conversation: each call
 * holds what is new since an earlier call of its conversation, and
 * `messages_base` says where the rest is; every reader gets each call's
 * full message list back.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadTrace, session, TraceFormatError } from '../../src/entries/index.js'
import type { Message } from '../../src/trace/types.js'
import { tempDir } from '../helpers/temp-dir.js'

/** An agent loop as the adapters see it: every request carries the whole history so far. */
function toolLoop(
  turns: number,
  outputChars: number,
): (s: { logLlmCall: (call: object) => string[]; logToolResult: (name: string, r: object) => void }) => void {
  return (s) => {
    const history: Array<{ role: string; content: string }> = [
      { role: 'system', content: 'You read pages.' },
      { role: 'user', content: 'Read every page.' },
    ]
    for (let i = 0; i < turns; i++) {
      const [id] = s.logLlmCall({ messages: [...history], toolCalls: [{ name: 'read_page', arguments: { page: i } }] })
      const output = `page ${i}: ${'text '.repeat(outputChars / 5)}`
      s.logToolResult('read_page', { callId: id, result: output })
      history.push({ role: 'assistant', content: `read_page(${i})` }, { role: 'tool', content: output })
    }
  }
}

describe('a conversation recorded call by call', () => {
  it("keeps each call's full message list in memory and in every loaded copy, sharing the common start", async () => {
    const traceDir = tempDir()
    const s = await session('reader', { traceDir }, toolLoop(5, 100))
    const lists = s.trace.turns.map((turn) => turn.llm_call.messages as Message[])
    expect(lists.map((list) => list.length)).toEqual([2, 4, 6, 8, 10])
    expect(lists[4]![1]).toBe(lists[0]![1])
    const loaded = loadTrace(join(traceDir, 'reader.trace.json'))
    expect(loaded.turns).toEqual(s.trace.turns)
    expect(loaded.turns[4]!.llm_call.messages![0]).toBe(loaded.turns[0]!.llm_call.messages![0])
  })

  it("writes each call's new messages and messages_base, so reagent-flow 0.5 sees the new messages", async () => {
    const traceDir = tempDir()
    await session('reader', { traceDir }, toolLoop(3, 10))
    const written = JSON.parse(readFileSync(join(traceDir, 'reader.trace.json'), 'utf8'))
    const calls = written.turns.map((turn: { llm_call: { messages: Message[]; messages_base?: unknown } }) => [
      turn.llm_call.messages.map((m) => m.role),
      turn.llm_call.messages_base,
    ])
    expect(calls).toEqual([
      [['system', 'user'], undefined],
      [['assistant', 'tool'], { turn: 0, count: 2 }],
      [['assistant', 'tool'], { turn: 1, count: 4 }],
    ])
  })

  it('grows the file linearly: 1,000 turns with 20 KB tool outputs take at most 1.5x their distinct content', async () => {
    const traceDir = tempDir()
    await session('long-reader', { traceDir, journal: false }, toolLoop(1_000, 20_000))
    const size = statSync(join(traceDir, 'long-reader.trace.json')).size
    // Each output is in the file twice: as the tool's result, and as the message that sends it back.
    const distinct = 1_000 * 20_000 * 2
    expect(size).toBeLessThan(distinct * 1.5)
    expect(size).toBeGreaterThan(distinct)
  }, 30_000)

  it('bases each call on its own conversation when two are interleaved', async () => {
    const s = await session('two-conversations', { save: false }, (s) => {
      const a = [{ role: 'user', content: 'conversation A' }]
      const b = [{ role: 'user', content: 'conversation B' }]
      for (let i = 0; i < 3; i++) {
        s.logLlmCall({ messages: [...a], responseText: `a${i}` })
        a.push({ role: 'assistant', content: `a${i}` })
        s.logLlmCall({ messages: [...b], responseText: `b${i}` })
        b.push({ role: 'assistant', content: `b${i}` })
      }
    })
    const lists = s.trace.turns.map((turn) => turn.llm_call.messages as Message[])
    expect(lists[4]![0]).toBe(lists[0]![0])
    expect(lists[5]![0]).toBe(lists[1]![0])
  })

  it('shares only the start that is the same when the agent rewrote its history', async () => {
    const traceDir = tempDir()
    await session('summariser', { traceDir }, (s) => {
      s.logLlmCall({
        messages: [
          { role: 'system', content: 'S' },
          { role: 'user', content: 'long question' },
          { role: 'assistant', content: 'long answer' },
        ],
      })
      s.logLlmCall({
        messages: [
          { role: 'system', content: 'S' },
          { role: 'user', content: 'summary of it all' },
        ],
      })
    })
    const written = JSON.parse(readFileSync(join(traceDir, 'summariser.trace.json'), 'utf8'))
    expect(written.turns[1].llm_call.messages_base).toEqual({ turn: 0, count: 1 })
    expect(loadTrace(join(traceDir, 'summariser.trace.json')).turns[1]!.llm_call.messages).toEqual([
      { role: 'system', content: 'S' },
      { role: 'user', content: 'summary of it all' },
    ])
  })

  it('refuses a file whose messages_base points past what it refers to, naming the place', async () => {
    const traceDir = tempDir()
    await session('reader', { traceDir }, toolLoop(2, 10))
    const path = join(traceDir, 'reader.trace.json')
    const written = JSON.parse(readFileSync(path, 'utf8'))
    written.turns[1].llm_call.messages_base = { turn: 0, count: 7 }
    writeFileSync(path, JSON.stringify(written, null, 2))
    expect(() => loadTrace(path)).toThrow(TraceFormatError)
    expect(() => loadTrace(path)).toThrow(
      `${path} is not a valid reagent-flow trace: at turns[1].llm_call.messages_base: refers to the first 7 messages of turn 0, which has 2 messages (rule: messages_base).`,
    )
  })
})
