export { instrumentAnthropic } from './instrument.js'

export type { AnthropicLike } from './instrument.js'
