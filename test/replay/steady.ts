/**
 * Re-recording the same behaviour against a server that, as a real API,
 * makes up new ids, times and fingerprints on every answer: the recording's
 * text after each of two records, and a replay of it offline.
 */
import { randomBytes, randomInt } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'vitest'
import { session, type Session } from '../../src/entries/index.js'
import { inOrder, startCannedServer, type CannedResponse, type CannedServer, type Handler } from '../helpers/canned-server.js'
import { tempDir } from '../helpers/temp-dir.js'

/** Ids as providers make them: a prefix and a random tail. */
const PROVIDER_ID = /\b(chatcmpl-|call_|resp_|msg_|fc_|toolu_|rs_)[A-Za-z0-9]{6,}/g

/**
 * `canned` as a real API answers it: every id, time and fingerprint made up
 * anew for this answer (one id stays one id within it, as a stream's chunks
 * share theirs).
 */
function freshAnswer(canned: CannedResponse): CannedResponse {
  const ids = new Map<string, string>()
  const text = (canned.sse ?? JSON.stringify(canned.json))
    .replace(PROVIDER_ID, (id, prefix: string) => {
      if (!ids.has(id)) ids.set(id, `${prefix}${randomBytes(12).toString('hex')}`)
      return ids.get(id)!
    })
    .replace(/"(created|created_at|completed_at)":\s*\d+/g, (_all, key: string) => `"${key}":${1_700_000_000 + randomInt(1_000_000)}`)
    .replace(/"system_fingerprint":\s*"[^"]*"/g, `"system_fingerprint":"fp_${randomBytes(5).toString('hex')}"`)
  return canned.sse === undefined ? { ...canned, json: JSON.parse(text) as unknown } : { ...canned, sse: text }
}

export function freshAnswers(...canned: CannedResponse[]): () => Handler {
  return () => {
    const next = inOrder(...canned)
    return async (request, index) => freshAnswer(await next(request, index))
  }
}

export interface Twice<T> {
  first: string
  second: string
  recorded: Session<T>
  replayed: Session<T>
}

/**
 * Records `agent` twice against servers that make up new ids and times on
 * every answer, then replays the recording offline: the recording's text
 * after each record, and the sessions of the second record and the replay.
 */
export async function recordTwice<T>(name: string, answers: () => Handler, agent: (server: CannedServer) => Promise<T>): Promise<Twice<T>> {
  const dir = tempDir('reagent-steady-')
  const file = join(dir, `${name}.recording.json`)
  const record = async (): Promise<{ text: string; run: Session<T> }> => {
    const server = await startCannedServer(answers())
    const run = await session(name, { traceDir: dir, replay: 'record' }, () => agent(server))
    await server.close()
    return { text: readFileSync(file, 'utf8'), run }
  }
  const first = await record()
  const second = await record()
  const offline = await startCannedServer(inOrder())
  await offline.close()
  const replayed = await session(name, { traceDir: dir, replay: 'replay' }, () => agent(offline))
  return { first: first.text, second: second.text, recorded: second.run, replayed }
}

/** Each turn's tool calls (name and arguments), tool results and answer text. */
function outcome(run: Session<unknown>): unknown {
  return run.trace.turns.map((turn) => ({
    calls: turn.llm_call.tool_calls.map(({ name, arguments: args }) => ({ name, args })),
    results: turn.tool_results.map((result) => result.result),
    text: turn.llm_call.response_text,
  }))
}

/** The replay gave the agent what the live run gave it: the same tool calls, tool results and answers (and output, unless it is made of ids). */
export function expectSameOutcome<T>({ recorded, replayed }: Twice<T>, { sameOutput = true } = {}): void {
  expect(replayed.status).toBe('completed')
  if (sameOutput) expect(replayed.output).toEqual(recorded.output)
  expect(outcome(replayed)).toEqual(outcome(recorded))
}
