import { describe, expect, it } from 'vitest'
import { diffToolContracts, formatContractDiff } from '../../src/contract/index.js'
import type { ToolDefinition } from '../../src/entries/index.js'

const object = (properties: Record<string, object>, required: string[] = []): ToolDefinition['parameters'] =>
  ({ type: 'object', properties, ...(required.length === 0 ? {} : { required }) }) as ToolDefinition['parameters']

function tool(name: string, parameters: ToolDefinition['parameters'], extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return { name, kind: 'function', description: `Does ${name}.`, parameters, ...extra }
}

const refund = tool(
  'refund',
  object({ order_id: { type: 'string' }, reason: { enum: ['damaged', 'late'] }, amount: { type: 'number', maximum: 100 } }, ['order_id']),
)

/** The formatted diff from `before` to `after`. */
const shown = (before: ToolDefinition[], after: ToolDefinition[]): string => formatContractDiff(diffToolContracts(before, after))

describe('diffToolContracts: breaking changes', () => {
  it('a removed tool, and one renamed (the same parameters under a new name)', () => {
    const lookup = tool('lookup', object({ id: { type: 'string' } }))
    expect(shown([refund, lookup, tool('ping', null)], [refund, { ...lookup, name: 'find_order' }])).toBe(
      ['  breaking    tool "lookup": renamed to "find_order"', '  breaking    tool "ping": removed'].join('\n'),
    )
  })

  it('a parameter removed, renamed or retyped, and a new required one', () => {
    const after = tool(
      'refund',
      object({ order: { type: 'string' }, reason: { type: 'string' }, amount: { type: 'number', maximum: 100 }, note: { type: 'string' } }, ['order', 'note']),
    )
    expect(shown([refund], [after])).toBe(
      [
        '  breaking    tool "refund": parameter "order_id" renamed to "order"',
        '  breaking    tool "refund": new required parameter "note" (string)',
        '  breaking    tool "refund": parameter "reason" type narrowed from any to string',
        '  compatible  tool "refund": parameter "reason" no longer limited to "damaged", "late"',
      ].join('\n'),
    )
    const removed = tool('refund', object({ order_id: { type: 'integer' }, amount: { type: 'number', maximum: 100 } }, ['order_id']))
    expect(shown([refund], [removed])).toBe(
      ['  breaking    tool "refund": parameter "reason" removed', '  breaking    tool "refund": parameter "order_id" retyped from string to integer'].join(
        '\n',
      ),
    )
  })

  it('an enum narrowed, a constraint tightened, an optional parameter made required, a kind changed', () => {
    const after = tool(
      'refund',
      object({ order_id: { type: 'string' }, reason: { enum: ['damaged'] }, amount: { type: 'number', maximum: 50 } }, ['order_id', 'amount']),
      {
        kind: 'handoff',
      },
    )
    expect(shown([refund], [after])).toBe(
      [
        '  breaking    handoff "refund": kind changed from function to handoff',
        '  breaking    handoff "refund": parameter "amount" is now required',
        '  breaking    handoff "refund": parameter "amount" maximum tightened from 100 to 50',
        '  breaking    handoff "refund": parameter "reason" enum narrowed: "late" removed',
      ].join('\n'),
    )
  })

  it('a result schema changed incompatibly: a property removed, values widened, one made optional', () => {
    const result = { type: 'object', properties: { status: { enum: ['ok', 'failed'] }, id: { type: 'string' } }, required: ['status', 'id'] }
    const before = { ...tool('read', null), kind: 'mcp' as const, server: 'files', result }
    const after = { ...before, result: { type: 'object', properties: { status: { enum: ['ok', 'failed', 'partial'] } } } }
    expect(shown([before], [after])).toBe(
      [
        '  breaking    MCP tool "read" (server "files"): result property "id" removed',
        '  breaking    MCP tool "read" (server "files"): result property "status" may now be absent',
        '  breaking    MCP tool "read" (server "files"): result property "status" enum widened: "partial" added',
      ].join('\n'),
    )
  })
})

describe('diffToolContracts: compatible changes', () => {
  it('a new tool, a new optional parameter, an enum widened, a constraint loosened, a required parameter made optional', () => {
    const after = tool(
      'refund',
      object({ order_id: { type: 'string' }, reason: { enum: ['damaged', 'late', 'lost'] }, amount: { type: 'number' }, note: { type: 'string' } }),
    )
    expect(shown([refund], [after, tool('notify', null)])).toBe(
      [
        '  compatible  tool "notify": added',
        '  compatible  tool "refund": new optional parameter "note" (string)',
        '  compatible  tool "refund": parameter "amount" maximum removed (was 100)',
        '  compatible  tool "refund": parameter "order_id" is now optional',
        '  compatible  tool "refund": parameter "reason" enum widened: "lost" added',
      ].join('\n'),
    )
  })
})

describe('diffToolContracts: wording changes', () => {
  it('shows a reworded description of a tool and of a parameter word by word', () => {
    const before = tool('search', object({ q: { type: 'string', description: 'What to look for.' } }), {
      description: 'Search the orders of the current customer.',
    })
    const after = tool('search', object({ q: { type: 'string', description: 'The words to look for.' } }), {
      description: 'Search all orders of every customer.',
    })
    expect(shown([before], [after])).toBe(
      [
        '  wording     tool "search": description',
        '                Search [-the-]{+all+} orders of [-the-]{+every+} [-current -]customer.',
        '  wording     tool "search": parameter "q" description',
        '                [-What-]{+The+} {+words +}to look for.',
      ].join('\n'),
    )
  })

  it('shows a description added or removed in full', () => {
    expect(shown([tool('a', null, { description: null })], [tool('a', null, { description: 'Adds.' })])).toBe(
      '  wording     tool "a": description\n                {+Adds.+}',
    )
  })
})

describe('diffToolContracts: schemas that are not valid JSON Schema', () => {
  it('flags them without throwing, and counts a change into one as breaking', () => {
    const valid = tool('lookup', object({ id: { type: 'string' } }))
    const invalid = tool('lookup', object({ id: { type: 'strng' } }))
    const diff = diffToolContracts([valid], [invalid])
    expect(diff.changes.map((change) => change.class)).toEqual(['breaking'])
    expect(formatContractDiff(diff)).toBe(
      [
        '  breaking    tool "lookup": parameters changed to a schema that is not valid JSON Schema (properties.id.type must be equal to one of the allowed values)',
        '',
        '  Not valid JSON Schema (recorded and compared as given):',
        '    tool "lookup": its parameters are not valid JSON Schema (properties.id.type must be equal to one of the allowed values)',
      ].join('\n'),
    )
    expect(diffToolContracts([invalid], [invalid])).toMatchObject({ equal: true, changes: [] })
  })

  it('flags a schema the SDK gave as something other than an object (recorded under $given)', () => {
    expect(diffToolContracts([], [tool('echo', { $given: 'string' })]).invalid).toEqual([
      'tool "echo": its parameters are not valid JSON Schema (it was given as "string", not as a schema object)',
    ])
  })
})

describe('diffToolContracts: equal tools', () => {
  it('is equal whatever the order of tools and of keys', () => {
    const reordered = { parameters: refund.parameters, description: refund.description, name: 'refund', kind: 'function' } as ToolDefinition
    expect(diffToolContracts([refund, tool('b', null)], [tool('b', null), reordered])).toEqual({ equal: true, changes: [], invalid: [] })
  })
})
