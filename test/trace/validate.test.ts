import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TraceFormatError, loadTrace } from '../../src/entries/index.js'
import { validateTrace } from '../../src/entries/files.js'
import { toJsonPath } from '../../src/trace/validate.js'

const PYTHON_FIXTURES = join(import.meta.dirname, '../../fixtures/reagent-flow-py-0.5')

function pythonFixtureFiles(): string[] {
  return [
    ...readdirSync(PYTHON_FIXTURES)
      .filter((f) => f.endsWith('.trace.json'))
      .map((f) => join(PYTHON_FIXTURES, f)),
    ...readdirSync(join(PYTHON_FIXTURES, 'golden')).map((f) => join(PYTHON_FIXTURES, 'golden', f)),
  ]
}

describe('traces written by reagent-flow 0.5 (Python)', () => {
  it('are all present', () => {
    expect(pythonFixtureFiles().length).toBeGreaterThanOrEqual(5)
  })

  it.each(pythonFixtureFiles().map((f) => [f.slice(PYTHON_FIXTURES.length + 1), f]))('%s loads and validates', (_, file) => {
    const trace = loadTrace(file)
    expect(trace.format_version).toBe('1')
    expect(trace.trace_id).toMatch(/^[0-9a-f-]{36}$/)
  })
})

function minimalTrace(): Record<string, unknown> {
  return {
    trace_id: 't',
    name: 'n',
    turns: [],
    metadata: {},
    started_at: 1.5,
    ended_at: null,
    format_version: '1',
    parent_trace_id: null,
    handoff_context: null,
  }
}

describe('validateTrace()', () => {
  it('returns the value when it is a trace', () => {
    const value = minimalTrace()
    expect(validateTrace(value)).toBe(value)
  })

  it.each([
    [{ format_version: '2' }, 'format_version', 'const', 'must be "1"'],
    [{ turns: [{ index: 0, llm_call: {}, tool_results: [], duration_ms: 0 }] }, 'turns[0].llm_call', 'required', 'missing required key "messages"'],
    [{ started_at: 'yesterday' }, 'started_at', 'type', 'must be number'],
    [{ status: 'done' }, 'status', 'enum', 'must be one of "active", "completed", "failed", "cancelled", "interrupted"'],
    [{ handoff_context: [1] }, 'handoff_context', 'type', 'must be object or null'],
  ])('rejects %j at %j (rule %s)', (patch, jsonPath, rule, detail) => {
    const value = { ...minimalTrace(), ...patch }
    let error: unknown
    try {
      validateTrace(value)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(TraceFormatError)
    expect(error).toMatchObject({ file: '<value>', jsonPath, rule })
    expect((error as Error).message).toContain(detail)
  })

  it('rejects extra keys on tool calls, which reagent-flow 0.5 cannot load', () => {
    const value = {
      ...minimalTrace(),
      turns: [
        {
          index: 0,
          llm_call: {
            messages: null,
            response_text: null,
            tool_calls: [{ name: 'a', arguments: {}, call_id: 'c', timestamp: 1.5, id: 'c' }],
            model: null,
            token_usage: null,
            timestamp: 1.5,
          },
          tool_results: [],
          duration_ms: 0,
        },
      ],
    }
    expect(() => validateTrace(value)).toThrowError(
      '<value> is not a valid reagent-flow trace: at turns[0].llm_call.tool_calls[0]: unexpected key "id" ' +
        '(the Python reagent-flow 0.5 cannot load extra keys here) (rule: additionalProperties).',
    )
  })
})

describe('toJsonPath()', () => {
  it('turns a JSON pointer into dotted notation', () => {
    expect(toJsonPath('')).toBe('')
    expect(toJsonPath('/turns/2/tool_calls/0/arguments/q')).toBe('turns[2].tool_calls[0].arguments.q')
    expect(toJsonPath('/metadata/a~1b/with space')).toBe('metadata["a/b"]["with space"]')
  })
})
