import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ReplayMissError, session, type Session } from '../../src/entries/index.js'
import { inOrder, startCannedServer, type CannedServer } from '../helpers/canned-server.js'
import { tempDir } from '../helpers/temp-dir.js'
import { ask } from './record-replay.js'
import { json } from '../adapters/openai/helpers.js'

afterEach(() => vi.unstubAllEnvs())

const FIX = "Record again with REAGENT_REPLAY=record (or the session option replay: 'record'), or use replay: 'auto' to record only the calls that changed."

async function recorded(dir: string, server: CannedServer, ...questions: string[]): Promise<Session<string[]>> {
  return session('support', { traceDir: dir, replay: 'record' }, ask(server, ...questions))
}

describe('a run that drifted from its recording', () => {
  it('in replay, fails the call with the step, the nearest recorded request and the difference, never calling the model', async () => {
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('chat/final-answer.json'), json('chat/final-answer.json')))
    await recorded(dir, server, 'Where is order 42?', 'Refund order 42.')

    const error = await session('support', { traceDir: dir, replay: 'replay' }, ask(server, 'Where is order 42?', 'Refund order 43.')).catch(
      (thrown: unknown) => thrown,
    )

    expect(error).toBeInstanceOf(ReplayMissError)
    expect((error as Error).message).toBe(
      `session "support": call 2 (openai POST /chat/completions) has no recorded answer in ${join(dir, 'support.recording.json')}: ` +
        'the nearest recorded request (call 2 of the recording) differs (- recorded, + this call):\n' +
        '  @@ -2,5 +2,5 @@\n' +
        '     "messages": [\n' +
        '       {\n' +
        '  -      "content": "Refund order 42.",\n' +
        '  +      "content": "Refund order 43.",\n' +
        '         "role": "user"\n' +
        '       }\n' +
        FIX,
    )
    expect(error).toMatchObject({ sessionName: 'support', endpoint: 'openai POST /chat/completions', step: 2 })
    expect(server.requests).toHaveLength(2)
  })

  it('in replay, says when a request was made more often than recorded', async () => {
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('chat/final-answer.json')))
    await recorded(dir, server, 'Where is order 42?')

    const error = await session('support', { traceDir: dir, replay: 'replay' }, ask(server, 'Where is order 42?', 'Where is order 42?')).then(
      () => new Error('the session did not fail'),
      (thrown: Error) => thrown,
    )

    expect(error.message).toBe(
      `session "support": call 2 (openai POST /chat/completions) has no recorded answer in ${join(dir, 'support.recording.json')}: ` +
        `all 1 recorded answer to this request was used; the agent made it a 2nd time. ${FIX}`,
    )
  })

  it('in replay, says there is no recording when there is none', async () => {
    const dir = tempDir()
    const server = await startCannedServer(inOrder())
    const error = await session('support', { traceDir: dir, replay: 'replay' }, ask(server, 'Where is order 42?')).then(
      () => new Error('the session did not fail'),
      (thrown: Error) => thrown,
    )

    expect(error.message).toBe(
      `session "support": call 1 (openai POST /chat/completions) has no recorded answer in ${join(dir, 'support.recording.json')}: ` +
        "there is no recording. Record the run first with REAGENT_REPLAY=record (or the session option replay: 'record').",
    )
    expect(server.requests).toEqual([])
  })

  it('in auto, answers what matches and records the one new call, leaving the rest of the recording as it was', async () => {
    vi.stubEnv('CI', '')
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('chat/final-answer.json'), json('chat/tool-call.json'), json('chat/final-answer.json')))
    await recorded(dir, server, 'Where is order 42?', 'Refund order 42.')
    const before = readFileSync(join(dir, 'support.recording.json'), 'utf8')

    const s = await session('support', { traceDir: dir, replay: 'auto' }, ask(server, 'Where is order 42?', 'Refund order 43.'))

    expect(server.requests.map((request) => (request.body as { messages: Array<{ content: string }> }).messages[0]!.content)).toEqual([
      'Where is order 42?',
      'Refund order 42.',
      'Refund order 43.',
    ])
    expect(s.trace.turns.map((turn) => turn.llm_call.replayed ?? false)).toEqual([true, false])
    const after = JSON.parse(readFileSync(join(dir, 'support.recording.json'), 'utf8')) as {
      scopes: Array<{ steps: Array<{ request: { messages: Array<{ content: string }> } }> }>
    }
    expect(after.scopes[0]!.steps.map((step) => step.request.messages[0]!.content)).toEqual(['Where is order 42?', 'Refund order 42.', 'Refund order 43.'])
    // The old steps are byte for byte what they were: only the new call is added.
    expect(readFileSync(join(dir, 'support.recording.json'), 'utf8').startsWith(before.slice(0, before.lastIndexOf('        }\n      ],')))).toBe(true)
  })

  it('in auto with nothing new, leaves the file untouched (a replay never dirties a checkout)', async () => {
    vi.stubEnv('CI', '')
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('chat/final-answer.json')))
    await recorded(dir, server, 'Where is order 42?')
    const path = join(dir, 'support.recording.json')
    const { mtimeMs } = statSync(path)

    await session('support', { traceDir: dir, replay: 'auto' }, ask(server, 'Where is order 42?'))

    expect(Math.abs(statSync(path).mtimeMs - mtimeMs)).toBeLessThan(0.01)
    expect(server.requests).toHaveLength(1)
  })
})
