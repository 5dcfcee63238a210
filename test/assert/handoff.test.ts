import { describe, expect, it } from 'vitest'
import {
  assertContextPreserved,
  assertHandoffHasFields,
  assertHandoffMatches,
  assertHandoffReceived,
  assertNoExtraFields,
  session,
} from '../../src/entries/index.js'
import { buildTrace, failureOf } from '../helpers/trace-builder.js'

const HINT = ' Pass the Session that session() resolves to (or a loaded Trace), not what the agent returned.'

const planner = buildTrace('planner', [{ calls: [{ name: 'delegate', args: { to: 'researcher' }, result: 'ok' }] }])
const researcher = buildTrace('researcher', [{ text: 'Found 2 sources.' }], {
  parent_trace_id: planner.trace_id,
  handoff_context: { topic: 'llm testing', depth: 2, owner: null, sources: ['a', 'b'] },
})
const orphan = buildTrace('orphan', [{ text: 'hi' }])

describe('assertHandoffReceived()', () => {
  it('passes when the child names the parent, given as a trace or a session', async () => {
    expect(() => assertHandoffReceived(researcher, planner)).not.toThrow()
    const parent = await session('parent', { save: false }, async () => {
      return session('child', { save: false }, () => 'done')
    })
    const child = parent.output!
    expect(() => assertHandoffReceived(child, parent)).not.toThrow()
    expect(() => child.assertHandoffReceived(parent.trace)).not.toThrow()
  })

  it('fails when the child has no parent, and says how to link it', () => {
    const error = failureOf(() => assertHandoffReceived(orphan, planner))
    expect(error.assertion).toBe('"orphan" has no parent_trace_id set')
    expect(error.message).toContain(
      'PROBABLE CAUSE: open the child session inside the parent\'s session, or pass { parentTraceId } to session(); the expected parent is "planner" (trace_id trace-planner)',
    )
  })

  it('fails when the child names another parent', () => {
    const error = failureOf(() => assertHandoffReceived(researcher, orphan))
    expect(error.assertion).toBe('"researcher" parent_trace_id "trace-planner" does not match expected parent "trace-orphan"')
    expect([error.actual, error.expected]).toEqual(['trace-planner', 'trace-orphan'])
  })

  it('rejects a parent that is not a trace', () => {
    expect(() => assertHandoffReceived(researcher, 'trace-planner' as never)).toThrow(
      new TypeError(
        `assertHandoffReceived(): parent must be a Session, a Trace (as loadTrace() returns) or a chain node (loadChain()), got "trace-planner" (string).${HINT}`,
      ),
    )
  })
})

describe('assertHandoffHasFields()', () => {
  it('passes when every field is present and not null', () => {
    expect(() => assertHandoffHasFields(researcher, ['topic', 'depth', 'sources'])).not.toThrow()
  })

  it('fails listing the fields that are missing or null, with the keys that are there', () => {
    const error = failureOf(() => assertHandoffHasFields(researcher, ['topic', 'owner', 'topics', 'deadline']))
    expect(error.assertion).toBe('"researcher" handoff_context missing or null for field(s): ["owner", "topics", "deadline"]')
    expect(error.message).toContain(
      'PROBABLE CAUSE: "topics" is missing, but "topic" is there: did you mean topic?\n' +
        '                handoff_context has keys ["topic", "depth", "owner", "sources"]',
    )
  })

  it('fails when there is no handoff context, and says how to pass one', () => {
    const error = failureOf(() => assertHandoffHasFields(orphan, ['topic']))
    expect(error.assertion).toBe('"orphan" has no handoff_context set')
    expect(error.message).toContain('PROBABLE CAUSE: the session was opened without a handoff context: pass session(name, { handoffContext: { ... } }, fn)')
  })

  it('rejects fields that are not an array of strings', () => {
    expect(() => assertHandoffHasFields(researcher, 'topic' as never)).toThrow(
      new TypeError('assertHandoffHasFields(): fields must be an array of strings, got "topic" (string).'),
    )
    expect(() => assertHandoffHasFields(researcher, ['topic', 3] as never)).toThrow(
      new TypeError('assertHandoffHasFields(): fields[1] must be a string, got 3 (number).'),
    )
  })
})

describe('assertNoExtraFields()', () => {
  it('passes when every key is allowed', () => {
    expect(() => assertNoExtraFields(researcher, { allowed: ['topic', 'depth', 'owner', 'sources', 'deadline'] })).not.toThrow()
  })

  it('fails listing the unexpected keys', () => {
    const error = failureOf(() => assertNoExtraFields(researcher, { allowed: ['topic', 'depth'] }))
    expect(error.assertion).toBe('unexpected handoff fields: ["owner", "sources"]')
    expect(error.message).toContain('PROBABLE CAUSE: allowed: ["topic", "depth"]')
  })
})

describe('assertContextPreserved()', () => {
  const plan = { topic: 'llm testing', depth: 3, sources: ['a', 'b'], budget: 5 }

  it('passes when the fields are deeply equal on both sides', () => {
    expect(() => assertContextPreserved(researcher, plan, { fields: ['topic', 'sources'] })).not.toThrow()
    expect(() => assertContextPreserved(researcher, { depth: expect.any(Number) }, { fields: ['depth'] })).not.toThrow()
  })

  it('fails on the first changed value, with both values and a diff', () => {
    const error = failureOf(() => assertContextPreserved(researcher, plan, { fields: ['topic', 'depth'] }))
    expect(error.assertion).toBe('field "depth" not preserved: source=3, received=2')
    expect([error.actual, error.expected]).toEqual([2, 3])
  })

  it('shows where a long text was changed on the way, word by word', () => {
    const summary = Array.from({ length: 12 }, (_, i) => `Finding ${i} of the research on llm testing.`).join(' ')
    const child = buildTrace('researcher', [{ text: 'ok' }], { handoff_context: { summary: summary.replace('Finding 9 of the', 'Finding 9 of a') } })
    const error = failureOf(() => assertContextPreserved(child, { summary }, { fields: ['summary'] }))
    const cause = error.message.slice(error.message.indexOf('PROBABLE CAUSE:'))
    expect(cause.split('\n').slice(0, 4)).toEqual([
      'PROBABLE CAUSE: "summary" differs from the source as shown below',
      '                  summary ([-source-]{+received+}):',
      '                    …(67 words)… the research on llm testing. Finding 9 of [-the-]{+a+} research on llm testing. Finding',
      '                    10 of the …(12 words)…',
    ])
  })

  it('fails when a field is missing on either side', () => {
    expect(failureOf(() => assertContextPreserved(researcher, plan, { fields: ['deadline'] })).assertion).toBe('field "deadline" not found in source')
    expect(failureOf(() => assertContextPreserved(researcher, plan, { fields: ['budget'] })).assertion).toBe('field "budget" not found in handoff_context')
  })
})

describe('assertHandoffMatches()', () => {
  it('passes and fails with a JSON Schema, listing every issue with its path', () => {
    const schema = {
      type: 'object',
      required: ['topic', 'depth', 'deadline'],
      properties: { topic: { type: 'string' }, depth: { type: 'string' }, sources: { type: 'array', items: { type: 'string', minLength: 2 } } },
    }
    expect(() => assertHandoffMatches(researcher, { schema: { type: 'object', required: ['topic'] } })).not.toThrow()
    expect(failureOf(() => assertHandoffMatches(researcher, { schema })).assertion).toBe(
      '"researcher" handoff_context does not match the schema: ' +
        'handoff_context.deadline: is required; handoff_context.depth: must be string; ' +
        'handoff_context.sources[0]: must NOT have fewer than 2 characters; handoff_context.sources[1]: must NOT have fewer than 2 characters',
    )
  })
})
