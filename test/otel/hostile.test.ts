import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it, onTestFinished } from 'vitest'
import { OtlpExportError } from '../../src/errors.js'
import { fromOtlp, postOtlp, toOtlp, type OtlpExportRequest } from '../../src/otel/index.js'
import { buildTrace } from '../helpers/trace-builder.js'

function chat(spanId: string, parentSpanId: string | undefined, start: number, model: string): Record<string, unknown> {
  return {
    traceId: 'a'.repeat(32),
    spanId,
    ...(parentSpanId === undefined ? {} : { parentSpanId }),
    name: `chat ${model}`,
    startTimeUnixNano: `${start}000000000`,
    endTimeUnixNano: `${start}500000000`,
    attributes: [
      { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
      { key: 'gen_ai.request.model', value: { stringValue: model } },
    ],
  }
}

const request = (spans: unknown[]): unknown => ({ resourceSpans: [{ scopeSpans: [{ spans }] }] })

describe('OTLP input that breaks things', () => {
  it('reads spans whose parents point at each other (a damaged file) without losing them', async () => {
    const { traces } = await fromOtlp(
      request([chat('1111111111111111', '2222222222222222', 1_800_000_000, 'a'), chat('2222222222222222', '1111111111111111', 1_800_000_001, 'b')]),
    )
    expect(traces.flatMap((trace) => trace.turns.map((turn) => turn.llm_call.model))).toEqual(['a', 'b'])
  })

  it('reads a chain 5,000 spans deep without running out of stack', async () => {
    const spans = Array.from({ length: 5_000 }, (_, i) =>
      chat(
        i.toString(16).padStart(16, '0').replace(/^0/, '1'),
        i === 0 ? undefined : (i - 1).toString(16).padStart(16, '0').replace(/^0/, '1'),
        1_800_000_000 + i,
        'm',
      ),
    )
    const { traces } = await fromOtlp(request(spans))
    expect(traces[0]!.turns).toHaveLength(5_000)
  })

  it('gives up on a receiver that never answers after timeoutMs, saying so', async () => {
    const server = createServer(() => undefined)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    onTestFinished(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections()
          server.close(() => resolve())
        }),
    )
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const sent = postOtlp(url, toOtlp({ trace: buildTrace('slow', [{ text: 'hi' }]), children: [] }) as OtlpExportRequest, { timeoutMs: 200 })
    await expect(sent).rejects.toBeInstanceOf(OtlpExportError)
    await expect(sent).rejects.toThrow(`Could not send the spans to ${url}/v1/traces: no answer (The operation was aborted due to timeout).`)
  })
})
