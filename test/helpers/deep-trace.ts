/**
 * A hand-written trace nested 100,000 levels deep: valid by the schema,
 * read by JSON.parse, and beyond what JSON.stringify or any recursive
 * reader survives. Written as text, since no writer of ours can produce it.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { JsonValue, Trace } from '../../src/trace/types.js'

export const DEEP = 100_000

const nested = (depth: number, leaf: string): string => `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`

/** The text of a trace named `name` whose tool result (and, with `inMetadata`, metadata) nests `depth` levels; `golden`: it asked for its golden. */
export function deepTraceText(name: string, { depth = DEEP, inMetadata = false, golden = false } = {}): string {
  const deep = nested(depth, '"bottom"')
  return JSON.stringify(
    {
      trace_id: `trace-${name}`,
      name,
      turns: [
        {
          index: 0,
          llm_call: {
            messages: null,
            response_text: null,
            tool_calls: [{ name: 'fetch', arguments: { q: 'x' }, call_id: 'c1', timestamp: 1_800_000_000 }],
            model: 'gpt-4o',
            token_usage: null,
            timestamp: 1_800_000_000,
          },
          tool_results: [{ call_id: 'c1', result: '@DEEP@', error: null, duration_ms: 1 }],
          duration_ms: 1,
        },
      ],
      metadata: inMetadata ? { payload: '@DEEP@' } : {},
      started_at: 1_800_000_000,
      ended_at: 1_800_000_001,
      format_version: '1',
      parent_trace_id: null,
      handoff_context: null,
      ...(golden ? { golden: true } : {}),
    },
    null,
    2,
  ).replaceAll('"@DEEP@"', deep)
}

export function writeDeepTrace(path: string, name: string, options: { depth?: number; inMetadata?: boolean; golden?: boolean } = {}): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, deepTraceText(name, options))
}

/** The same trace as an in-memory value (what JSON.parse gives; no file involved). */
export function deepTrace(name: string, depth = DEEP): Trace {
  return JSON.parse(deepTraceText(name, { depth })) as Trace
}

/** A value nested `depth` levels deep around `leaf`. */
export function deepValue(depth: number, leaf: JsonValue): JsonValue {
  let value = leaf
  for (let i = 0; i < depth; i++) value = [value]
  return value
}
