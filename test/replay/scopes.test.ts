import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { session, traceTool, UnusedRecordingError } from '../../src/entries/index.js'
import { inOrder, startCannedServer, type CannedServer } from '../helpers/canned-server.js'
import { tempDir } from '../helpers/temp-dir.js'
import { captureWarnings } from '../helpers/warnings.js'
import { json, openaiClient } from '../adapters/openai/helpers.js'

afterEach(() => vi.unstubAllEnvs())

function ask(server: CannedServer, ...questions: string[]): () => Promise<string[]> {
  const client = openaiClient(server)
  return async () => {
    const answers: string[] = []
    for (const question of questions)
      answers.push(
        (await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: question }] })).choices[0]!.message.content ?? '',
      )
    return answers
  }
}

describe('recordings per session id and user id', () => {
  it("never answers another user's calls from this user's recording, even with the same session id", async () => {
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('chat/final-answer.json')))
    await session('support', { traceDir: dir, replay: 'record', sessionId: 'conv-1', userId: 'alice' }, ask(server, 'Where is order 42?'))

    const error = await session('support', { traceDir: dir, replay: 'replay', sessionId: 'conv-1', userId: 'bob' }, ask(server, 'Where is order 42?')).then(
      () => new Error('the session did not fail'),
      (thrown: Error) => thrown,
    )
    const alice = await session('support', { traceDir: dir, replay: 'replay', sessionId: 'conv-1', userId: 'alice' }, ask(server, 'Where is order 42?'))

    expect(error.message).toBe(
      `session "support" (session_id "conv-1", user_id "bob"): call 1 (openai POST /chat/completions) has no recorded answer in ${join(dir, 'support.recording.json')}: ` +
        'the recording has no calls for session_id "conv-1", user_id "bob" (it has calls for session_id "conv-1", user_id "alice"): ' +
        'a recording answers only the session and user it was recorded for. ' +
        "Record again with REAGENT_REPLAY=record (or the session option replay: 'record'), or use replay: 'auto' to record only the calls that changed.",
    )
    expect(alice.output).toEqual(['It is 18°C and sunny in Paris.'])
    expect(server.requests).toHaveLength(1)
  })

  it("records each user in a scope of their own, in one file: recording one keeps the other's", async () => {
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('chat/final-answer.json'), json('chat/final-answer.json')))
    await session('support', { traceDir: dir, replay: 'record', userId: 'bob' }, ask(server, 'Hi from Bob'))
    await session('support', { traceDir: dir, replay: 'record', userId: 'alice' }, ask(server, 'Hi from Alice'))

    const file = JSON.parse(readFileSync(join(dir, 'support.recording.json'), 'utf8')) as { scopes: Array<{ user_id: string; steps: unknown[] }> }
    expect(file.scopes.map((scope) => [scope.user_id, scope.steps.length])).toEqual([
      ['alice', 1],
      ['bob', 1],
    ])
  })
})

describe('CI', () => {
  it('replays in auto, failing a call the recording cannot answer instead of calling the model, and writes nothing', async () => {
    vi.stubEnv('CI', 'true')
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('chat/final-answer.json')))
    await session('support', { traceDir: dir, replay: 'record' }, ask(server, 'Where is order 42?'))
    const before = readFileSync(join(dir, 'support.recording.json'), 'utf8')

    const error = await session('support', { traceDir: dir, replay: 'auto' }, ask(server, 'Where is order 42?', 'And order 43?')).then(
      () => new Error('the session did not fail'),
      (thrown: Error) => thrown,
    )

    expect(error.name).toBe('ReplayMissError')
    expect(server.requests).toHaveLength(1)
    expect(readFileSync(join(dir, 'support.recording.json'), 'utf8')).toBe(before)
  })

  it('still records when asked to explicitly (replay: record, or REAGENT_REPLAY=record)', async () => {
    vi.stubEnv('CI', 'true')
    vi.stubEnv('REAGENT_REPLAY', 'record')
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('chat/final-answer.json')))
    await session('support', { traceDir: dir, replay: 'auto' }, ask(server, 'Where is order 42?'))
    expect(existsSync(join(dir, 'support.recording.json'))).toBe(true)
  })
})

describe('recorded calls a replayed session never used', () => {
  it('are a warning naming each one, when the session completes', async () => {
    const warnings = captureWarnings()
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('chat/final-answer.json'), json('chat/final-answer.json')))
    await session('support', { traceDir: dir, replay: 'record' }, ask(server, 'Where is order 42?', 'Refund it.'))

    await session('support', { traceDir: dir, replay: 'replay' }, ask(server, 'Where is order 42?'))

    expect((await warnings.seen()).filter((warning) => warning.code === 'REAGENT_REPLAY').map((warning) => warning.message)).toEqual([
      `reagent-flow: session "support": 1 recorded call was not used: openai POST /chat/completions (call 2 of the recording) in ${join(dir, 'support.recording.json')}. ` +
        'The agent no longer makes it: run again with REAGENT_REPLAY=prune (or record again with REAGENT_REPLAY=record) to drop it.',
    ])
  })

  it('are an error with strict: true, which session() rejects with after writing the trace', async () => {
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('chat/final-answer.json'), json('chat/final-answer.json')))
    await session('support', { traceDir: dir, replay: 'record' }, ask(server, 'Where is order 42?', 'Refund it.'))

    const error = await session('support', { traceDir: dir, replay: 'replay', strict: true }, ask(server, 'Where is order 42?')).catch(
      (thrown: unknown) => thrown,
    )

    expect(error).toBeInstanceOf(UnusedRecordingError)
    expect(error).toMatchObject({ unused: ['openai POST /chat/completions (call 2 of the recording)'], recordingPath: join(dir, 'support.recording.json') })
    expect(JSON.parse(readFileSync(join(dir, 'support.trace.json'), 'utf8'))).toMatchObject({ status: 'completed' })
  })
})

describe('traceTool in record and replay', () => {
  it('runs tools for real in every mode by default, and serves their recorded results with replayTools: true', async () => {
    const dir = tempDir()
    let executions = 0
    const lookupOrder = traceTool('lookup_order', async ({ id }: { id: string }) => {
      executions++
      return { id, status: executions === 1 ? 'shipped' : 'changed since' }
    })
    const agent = () => lookupOrder({ id: '42' })

    await session('orders', { traceDir: dir, replay: 'record' }, agent)
    const live = await session('orders', { traceDir: dir, replay: 'replay' }, agent)
    const replayed = await session('orders', { traceDir: dir, replay: 'replay', replayTools: true }, agent)

    expect(live.output).toEqual({ id: '42', status: 'changed since' })
    expect(replayed.output).toEqual({ id: '42', status: 'shipped' })
    expect(executions).toBe(2)
  })

  it('matches a tool that changes the arguments it was given on the arguments it was called with', async () => {
    const dir = tempDir()
    let executions = 0
    const search = traceTool('search', async (query: { q: string; limit?: number }) => {
      query.limit ??= 10 // the tool fills in its default on the object it got
      executions++
      return [`${query.q} (${query.limit})`]
    })
    const agent = () => search({ q: 'refunds' })

    await session('search', { traceDir: dir, replay: 'record' }, agent)
    const replayed = await session('search', { traceDir: dir, replay: 'replay', replayTools: true }, agent)

    expect(replayed.output).toEqual(['refunds (10)'])
    expect(executions).toBe(1)
  })

  it('replays a tool that threw with the same error, and a synchronous tool synchronously', async () => {
    const dir = tempDir()
    const check = traceTool('check_stock', ({ sku }: { sku: string }) => {
      if (sku === 'none') throw new RangeError(`no stock for ${sku}`)
      return 3
    })
    const agent = () => {
      const count = check({ sku: 'a1' })
      let failure = ''
      try {
        check({ sku: 'none' })
      } catch (error) {
        failure = `${(error as Error).name}: ${(error as Error).message}`
      }
      return { count, failure }
    }
    await session('stock', { traceDir: dir, replay: 'record' }, agent)
    const replayed = await session('stock', { traceDir: dir, replay: 'replay', replayTools: true }, agent)
    expect(replayed.output).toEqual({ count: 3, failure: 'RangeError: no stock for none' })
  })
})
