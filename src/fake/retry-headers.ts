/**
 * The retry delay every scripted error step announces: short, so a test
 * whose SDK retries stays fast. `retry-after-ms` is read first by the
 * Stainless SDKs (openai, @anthropic-ai/sdk) and the AI SDK; LangChain reads
 * only `retry-after` (seconds), and retries a 429 only when it is there.
 */
export const RETRY_HEADERS: Readonly<Record<string, string>> = { 'retry-after-ms': '1', 'retry-after': '0' }
