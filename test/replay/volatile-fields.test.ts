import { describe, expect, it } from 'vitest'
import type { RecordedResponse, StepRecord } from '../../src/storage/index.js'
import { steadySteps } from '../../src/replay/volatile-fields.js'

const SCOPE = ['support', null, null] as const

function exchange(endpoint: string, response: RecordedResponse): StepRecord {
  return { kind: 'exchange', endpoint, request: { model: 'gpt-4o' }, response }
}

/** The tag of SCOPE's ids (six digits), read off an id it was given. */
function tagOf(id: unknown): string {
  return /^call_(\d{6})_1$/.exec(String(id))![1]!
}

describe('steady recordings: the volatile fields of recorded answers', () => {
  it('replaces ids by their prefix, the scope tag and a number, one replacement per id across steps, keeping key order', () => {
    const [first, second] = steadySteps(
      [
        exchange('openai POST /chat/completions', {
          status: 200,
          body: {
            id: 'chatcmpl-AbC123',
            created: 1741570290,
            system_fingerprint: 'fp_07871e2ad8',
            choices: [{ message: { tool_calls: [{ id: 'call_Xy9', function: { arguments: '{"id":"call_Xy9"}' } }] } }],
          },
        }),
        exchange('openai POST /responses', {
          status: 200,
          events: [
            { event: 'response.created', data: { response: { id: 'resp_68ab', created_at: 1741476542, completed_at: null }, sequence_number: 0 } },
            { data: { item_id: 'msg_1f', obfuscation: 'x7Yz', sequence_number: 1 } },
            { text: '[DONE]' },
          ],
        }),
      ],
      SCOPE,
    ) as Array<Extract<StepRecord, { kind: 'exchange' }>>
    const body = (first!.response as { body: Record<string, unknown> }).body
    const tag = tagOf((body.choices as Array<{ message: { tool_calls: Array<{ id: string }> } }>)[0]!.message.tool_calls[0]!.id)
    expect(Object.keys(body)).toEqual(['id', 'created', 'system_fingerprint', 'choices'])
    expect(body).toEqual({
      id: `chatcmpl-${tag}-1`,
      created: 0,
      system_fingerprint: 'fp_0',
      choices: [{ message: { tool_calls: [{ id: `call_${tag}_1`, function: { arguments: '{"id":"call_Xy9"}' } }] } }],
    })
    expect(second!.response).toEqual({
      status: 200,
      events: [
        { event: 'response.created', data: { response: { id: `resp_${tag}_1`, created_at: 0, completed_at: null }, sequence_number: 0 } },
        { data: { item_id: `msg_${tag}_1`, obfuscation: '', sequence_number: 1 } },
        { text: '[DONE]' },
      ],
    })
  })

  it('leaves a recording already steady as it is, and gives new ids of an appended step the next numbers', () => {
    const steps = steadySteps(
      [exchange('anthropic POST /v1/messages', { status: 200, body: { id: 'msg_01A', content: [{ id: 'toolu_01B', input: { id: 'x' } }] } })],
      SCOPE,
    )
    expect(steadySteps(steps, SCOPE)).toEqual(steps)
    const appended = steadySteps([...steps, exchange('anthropic POST /v1/messages', { status: 200, body: { id: 'msg_02C', content: [] } })], SCOPE)
    expect(appended[0]).toEqual(steps[0])
    expect((appended[1] as unknown as { response: { body: { id: string } } }).response.body.id).toMatch(/^msg_\d{6}_2$/)
  })

  it('keeps what the call did not make up: a tool input, a model description, an id the caller named in the path, tool steps', () => {
    const tool: StepRecord = { kind: 'tool', name: 'lookup', input: { id: 'order_42' }, async: true, result: { id: 'r_1', created_at: 5 } }
    const steps = steadySteps(
      [
        exchange('openai GET /models', { status: 200, body: { object: 'list', data: [{ id: 'gpt-4o', object: 'model', created: 1715367049 }] } }),
        exchange('openai GET /files/file-mine', { status: 200, body: { id: 'file-mine', created_at: 3 } }),
        exchange('openai POST /files', { status: 200, body: { id: 'file-new1', created_at: 4 } }),
        exchange('openai GET /files/file-new1/content', { status: 200, text: 'data', content_type: 'text/plain' }),
        tool,
      ],
      SCOPE,
    )
    expect((steps[0] as { response: unknown }).response).toEqual({
      status: 200,
      body: { object: 'list', data: [{ id: 'gpt-4o', object: 'model', created: 1715367049 }] },
    })
    expect((steps[1] as { response: unknown }).response).toEqual({ status: 200, body: { id: 'file-mine', created_at: 0 } })
    const made = (steps[2] as unknown as { response: { body: { id: string } } }).response.body.id
    expect(made).toMatch(/^file-\d{6}-1$/)
    expect((steps[3] as { endpoint: string }).endpoint).toBe(`openai GET /files/${made}/content`)
    expect(steps[4]).toBe(tool)
  })

  it('gives the sessions of one conversation ids of their own (a handoff carries both), the same on every write', () => {
    const step = exchange('openai POST /chat/completions', { status: 200, body: { id: 'chatcmpl-1x' } })
    const triage = steadySteps([step], ['Triage agent', null, null])
    const billing = steadySteps([step], ['Billing agent', null, null])
    expect(triage).not.toEqual(billing)
    expect(steadySteps([step], ['Billing agent', null, null])).toEqual(billing)
  })
})
