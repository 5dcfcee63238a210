/**
 * The record/replay round trip the adapter tests share: the agent runs with
 * the real SDK against the canned local server in `record`, the server is
 * stopped, and the same agent runs again in `replay`, opening no socket.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'vitest'
import { session, type JsonValue, type Session, type Trace } from '../../src/entries/index.js'
import { normalizeTrace } from '../../src/entries/golden.js'
import { normalizeRequest } from '../../src/replay/normalize.js'
import { canonicalJson } from '../../src/replay/step-key.js'
import { startCannedServer, type CannedServer, type Handler } from '../helpers/canned-server.js'
import { watchSockets } from '../helpers/sockets.js'
import { tempDir } from '../helpers/temp-dir.js'
import { openaiClient } from '../adapters/openai/helpers.js'

export interface RoundTrip<T> {
  recorded: Session<T>
  replayed: Session<T>
  server: CannedServer
  dir: string
  /** The recording file's text. */
  recording: () => string
}

/**
 * The trace without what differs between two runs of the same behaviour
 * (golden normal form, which leaves `replayed` out; the provider's ids in
 * the messages renumbered, as a recording keeps its own steady ids).
 * `anyOrder`: turns of calls that ran side by side are recorded as they
 * end, in either order.
 */
export function behaviour(trace: Trace, { anyOrder = false } = {}): unknown {
  const turns = normalizeTrace(trace).turns.map(({ index: _index, ...turn }) => ({
    ...turn,
    llm_call: { ...turn.llm_call, messages: normalizeRequest(turn.llm_call.messages) },
  }))
  return anyOrder ? turns.map((turn) => canonicalJson(turn as unknown as JsonValue)).sort() : turns
}

export async function recordThenReplay<T>(
  name: string,
  handler: Handler,
  agent: (server: CannedServer) => Promise<T>,
  { anyOrder = false } = {},
): Promise<RoundTrip<T>> {
  const dir = tempDir('reagent-replay-')
  const server = await startCannedServer(handler)
  const recorded = await session(name, { traceDir: dir, replay: 'record' }, () => agent(server))
  await server.close()
  const sockets = watchSockets()
  const replayed = await session(name, { traceDir: dir, replay: 'replay' }, () => agent(server))
  expect(sockets.opened()).toBe(0)
  expect(replayed.output).toEqual(recorded.output)
  expect(behaviour(replayed.trace, { anyOrder })).toEqual(behaviour(recorded.trace, { anyOrder }))
  expect(replayed.trace.turns.every((turn) => turn.llm_call.replayed === true)).toBe(true)
  expect(recorded.trace.turns.some((turn) => 'replayed' in turn.llm_call)).toBe(false)
  return { recorded, replayed, server, dir, recording: () => readFileSync(join(dir, `${name}.recording.json`), 'utf8') }
}

/** Asks the model one question per entry, in order. */
export function ask(server: CannedServer, ...questions: string[]): () => Promise<string[]> {
  const client = openaiClient(server)
  return async () => {
    const answers: string[] = []
    for (const question of questions) {
      const completion = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: question }] })
      answers.push(completion.choices[0]!.message.content ?? '')
    }
    return answers
  }
}
