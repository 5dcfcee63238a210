/**
 * A JSON value, as `JSON.parse` gives it. Here, below everything, because
 * code with no idea of a trace speaks JSON too (the SSE codec, redaction);
 * trace/types.ts re-exports it with the trace format's own types.
 */

export type JsonPrimitive = string | number | boolean | null
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue }
export type JsonObject = { [key: string]: JsonValue }
