import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RecordingFormatError, session } from '../../src/entries/index.js'
import { parseRecording, renderRecording } from '../../src/replay/recording-format.js'
import { inOrder, startCannedServer, type CannedServer } from '../helpers/canned-server.js'
import { tempDir } from '../helpers/temp-dir.js'
import { json, openaiClient, sse } from '../adapters/openai/helpers.js'

function ask(server: CannedServer, content: string): () => Promise<unknown> {
  return async () =>
    (await openaiClient(server).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }] })).choices[0]!.message.content
}

describe('the recording file', () => {
  it('is written in a reviewable form: its own keys and the request sorted, recorded values in their order, a stream one event per line, no times', () => {
    const text = renderRecording({
      recording: 1,
      name: 'support',
      scopes: [
        {
          session_id: null,
          user_id: 'u1',
          steps: [
            {
              kind: 'exchange',
              endpoint: 'openai POST /chat/completions',
              request: { model: 'gpt-4o', stream: true },
              response: { status: 200, events: [{ data: { id: 'c1', choices: [] } }, { text: '[DONE]' }] },
            },
            { kind: 'tool', name: 'lookup_order', input: { id: '42' }, result: { status: 'shipped', eta: '2026-05-09' }, async: true },
          ],
        },
      ],
    })
    expect(text).toBe(
      [
        '{',
        '  "name": "support",',
        '  "recording": 1,',
        '  "scopes": [',
        '    {',
        '      "session_id": null,',
        '      "steps": [',
        '        {',
        '          "endpoint": "openai POST /chat/completions",',
        '          "kind": "exchange",',
        '          "request": {',
        '            "model": "gpt-4o",',
        '            "stream": true',
        '          },',
        '          "response": {',
        '            "events": [',
        '              {"data":{"id":"c1","choices":[]}},',
        '              {"text":"[DONE]"}',
        '            ],',
        '            "status": 200',
        '          }',
        '        },',
        '        {',
        '          "async": true,',
        '          "input": {',
        '            "id": "42"',
        '          },',
        '          "kind": "tool",',
        '          "name": "lookup_order",',
        '          "result": {',
        '            "status": "shipped",',
        '            "eta": "2026-05-09"',
        '          }',
        '        }',
        '      ],',
        '      "user_id": "u1"',
        '    }',
        '  ]',
        '}',
        '',
      ].join('\n'),
    )
    expect(renderRecording(parseRecording(text, 'x'))).toBe(text)
  })

  it('is byte for byte the same when the same behaviour is recorded again', async () => {
    const dir = tempDir()
    const server = await startCannedServer(inOrder(sse('chat/final-answer.sse'), sse('chat/final-answer.sse')))
    const streamed = async () => {
      let text = ''
      for await (const chunk of await openaiClient(server).chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
      }))
        text += chunk.choices[0]?.delta.content ?? ''
      return text
    }
    await session('support', { traceDir: dir, replay: 'record' }, streamed)
    const first = readFileSync(join(dir, 'support.recording.json'), 'utf8')
    await session('support', { traceDir: dir, replay: 'record' }, streamed)
    expect(readFileSync(join(dir, 'support.recording.json'), 'utf8')).toBe(first)
  })

  it('never holds headers, and holds secrets only redacted; a redacted request still matches its recording', async () => {
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('chat/final-answer.json')))
    const secret = 'sk-proj-4f9Qx2LmNb7Vc1Zr8Kt3Hs6Jd0Wp5Ye'
    await session('support', { traceDir: dir, replay: 'record' }, ask(server, `My key is ${secret}, refund order 42`))
    const text = readFileSync(join(dir, 'support.recording.json'), 'utf8')

    expect(text).not.toContain(secret)
    expect(text).not.toContain('sk-test-key')
    expect(text.toLowerCase()).not.toContain('authorization')
    expect(text).toContain('"content": "My key is [REDACTED], refund order 42"')
    const replayed = await session('support', { traceDir: dir, replay: 'replay' }, ask(server, `My key is ${secret}, refund order 42`))
    expect(replayed.output).toBe('It is 18°C and sunny in Paris.')
  })

  it('that is not a recording stops a replayed session before its function runs, naming the file and the fix', async () => {
    const dir = tempDir()
    const path = join(dir, 'support.recording.json')
    writeFileSync(path, '{"recording": 1, "name": "support", "scopes": [{"session_id": null, "user_id": null, "steps": [{"kind": "call"}]}]}')
    let ran = false
    const error = await session('support', { traceDir: dir, replay: 'replay' }, () => (ran = true)).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(RecordingFormatError)
    expect((error as Error).message).toBe(
      `${path} is not a readable reagent-flow recording: scopes[0].steps[0].kind is "call", not "exchange" or "tool". Record it again (REAGENT_REPLAY=record) or delete it.`,
    )
    expect(ran).toBe(false)
  })

  it.each([
    ['a status of 999', { status: 999 }, 'scopes[0].steps[0].response.status is 999, not an HTTP status from 200 to 599'],
    ['a status that is not a number', { status: 'abc' }, 'scopes[0].steps[0].response.status is "abc", not an HTTP status from 200 to 599'],
    ['a body that is text', { body: 'It is sunny.' }, 'scopes[0].steps[0].response.body is "It is sunny.", not a JSON object or list'],
    ['a body that is a number', { body: 42 }, 'scopes[0].steps[0].response.body is 42, not a JSON object or list'],
  ])('tampered with (%s) stops a replayed session before its function runs, naming the file and the record', async (_, change, problem) => {
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('chat/final-answer.json')))
    await session('support', { traceDir: dir, replay: 'record' }, ask(server, 'Weather?'))
    const path = join(dir, 'support.recording.json')
    const recording = JSON.parse(readFileSync(path, 'utf8'))
    Object.assign(recording.scopes[0].steps[0].response, change)
    writeFileSync(path, JSON.stringify(recording))
    let ran = false
    const error = await session('support', { traceDir: dir, replay: 'replay' }, () => (ran = true)).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(RecordingFormatError)
    expect((error as Error).message).toBe(`${path} is not a readable reagent-flow recording: ${problem}. Record it again (REAGENT_REPLAY=record) or delete it.`)
    expect(ran).toBe(false)
  })

  it("of another session (its name is not this session's) stops a replayed session, naming both", async () => {
    const dir = tempDir()
    const path = join(dir, 'support.recording.json')
    writeFileSync(path, renderRecording({ recording: 1, name: 'billing', scopes: [{ session_id: null, user_id: null, steps: [] }] }))
    let ran = false
    const error = await session('support', { traceDir: dir, replay: 'replay' }, () => (ran = true)).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(RecordingFormatError)
    expect((error as Error).message).toBe(
      `${path} is not a readable reagent-flow recording: "name" is "billing", the recording of another session than "support". Record it again (REAGENT_REPLAY=record) or delete it.`,
    )
    expect(ran).toBe(false)
  })

  it('holds a session name with a secret redacted, and answers that session when it replays', async () => {
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('chat/final-answer.json')))
    const name = 'deploy-bot sk-proj-4f9Qx2LmNb7Vc1Zr8Kt3Hs6Jd0Wp5Ye'
    await session(name, { traceDir: dir, replay: 'record' }, ask(server, 'Deploy?'))
    const text = readFileSync(join(dir, 'deploy-bot__REDACTED.recording.json'), 'utf8')
    expect(text).not.toContain('sk-proj-')
    expect(JSON.parse(text).name).toBe('deploy-bot [REDACTED]')
    const replayed = await session(name, { traceDir: dir, replay: 'replay' }, ask(server, 'Deploy?'))
    expect(replayed.output).toBe('It is 18°C and sunny in Paris.')
    expect(server.requests).toHaveLength(1)
  })
})
