/**
 * What scriptedFetch needs from each provider API it speaks: how to read a
 * request body, and how to write a reply, a stream of events or an error the
 * way that provider does.
 */
import type { SseEvent } from '../../http/sse.js'
import type { Reply } from '../script-cursor.js'
import type { ErrorStep, ScriptApi, ScriptMessage, ScriptTool } from '../types.js'

/** The neutral parts of a request body. */
export interface ParsedRequest {
  model: string | undefined
  messages: ScriptMessage[]
  tools: ScriptTool[]
  stream: boolean
}

/** What a reply is written for. */
export interface ReplyContext {
  call: number
  /** The model asked for, echoed back as the one that answered. */
  model: string
  body: Record<string, unknown>
  /** When the answer was made, in epoch seconds, as providers put it in `created` fields. */
  created: number
  /** Sent in the format's request-id header, and in error bodies that repeat it. */
  requestId: string
}

export interface WireFormat {
  api: ScriptApi
  /** Starts the ids of tool calls a step gives none. */
  toolCallIdPrefix: string
  /** The response header that carries the request id. */
  requestIdHeader: string
  parse(body: Record<string, unknown>): ParsedRequest
  json(reply: Reply, context: ReplyContext): unknown
  events(reply: Reply, context: ReplyContext): SseEvent[]
  errorBody(error: ErrorStep['error'], context: ReplyContext): unknown
}
