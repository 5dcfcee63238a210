export { instrumentAnthropic } from '../../adapters/anthropic/instrument.js'

export type { AnthropicLike } from '../../adapters/anthropic/instrument.js'
