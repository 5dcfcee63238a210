/**
 * Canned model answers for the simulation tests: an OpenAI chat completion
 * and an Anthropic message holding a text or a tool call, as the canned
 * server sends them, and the record-then-replay round trip of one piece of
 * code (recorded with the server up, replayed with it closed, no socket).
 */
import { expect } from 'vitest'
import { session, type Session } from '../../src/entries/index.js'
import type { CannedResponse, CannedServer } from '../helpers/canned-server.js'
import { watchSockets } from '../helpers/sockets.js'
import { tempDir } from '../helpers/temp-dir.js'

const usage = { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 }

/** A chat completion whose message is `text`, or calls `tool` with `args` (JSON text, as OpenAI sends it). */
export function completion(answer: { text: string } | { tool: string; args: string; id?: string }): CannedResponse {
  const message =
    'text' in answer
      ? { role: 'assistant', content: answer.text }
      : {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: answer.id ?? 'call_1', type: 'function', function: { name: answer.tool, arguments: answer.args } }],
        }
  return {
    json: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1741570283,
      model: 'gpt-4o-mini-2024-07-18',
      choices: [{ index: 0, message, finish_reason: 'text' in answer ? 'stop' : 'tool_calls', logprobs: null }],
      usage,
    },
  }
}

/** An Anthropic message with `text`, then a call of `tool` with `input` when given. */
export function anthropicMessage(text: string, tool?: { name: string; input: unknown }): CannedResponse {
  return {
    json: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-haiku-4-5',
      content: [{ type: 'text', text }, ...(tool === undefined ? [] : [{ type: 'tool_use', id: 'toolu_1', name: tool.name, input: tool.input }])],
      stop_reason: tool === undefined ? 'end_turn' : 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 40, output_tokens: 12 },
    },
  }
}

export interface RoundTrip<T> {
  recorded: Session<T>
  replayed: Session<T>
  dir: string
}

/** Runs `fn` in session `name` recording, closes `server`, then replays it offline: same output, no socket opened. */
export async function recordThenReplay<T>(name: string, server: CannedServer, fn: () => Promise<T>): Promise<RoundTrip<T>> {
  const dir = tempDir('reagent-simulate-')
  const recorded = await session(name, { traceDir: dir, replay: 'record' }, fn)
  await server.close()
  const sockets = watchSockets()
  const replayed = await session(name, { traceDir: dir, replay: 'replay' }, fn)
  expect(sockets.opened()).toBe(0)
  expect(replayed.output).toEqual(recorded.output)
  expect(replayed.trace.turns.map((turn) => turn.llm_call.replayed)).toEqual(recorded.trace.turns.map(() => true))
  return { recorded, replayed, dir }
}
