import * as incubating from '@opentelemetry/semantic-conventions/incubating'
import { describe, expect, it } from 'vitest'
import { GEN_AI, GENERAL, OPERATION } from '../../src/entries/otel.js'

/** `gen_ai.request.model` -> its constant's name, `ATTR_GEN_AI_REQUEST_MODEL`. */
function constantOf(name: string): string {
  return `ATTR_${name.replace(/\./g, '_').toUpperCase()}`
}

describe('the attribute names reagent-flow writes and reads', () => {
  it('are the ones @opentelemetry/semantic-conventions names, every one of them', () => {
    const conventions = incubating as unknown as Record<string, unknown>
    for (const name of [...Object.values(GEN_AI), ...Object.values(GENERAL)]) expect([name, conventions[constantOf(name)]]).toEqual([name, name])
    for (const value of Object.values(OPERATION)) expect(conventions[`GEN_AI_OPERATION_NAME_VALUE_${value.toUpperCase()}`]).toBe(value)
  })
})
